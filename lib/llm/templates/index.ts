export { defineTemplate, getTemplate, listTemplates, type TemplateSpec } from './registry';
export {
  answerTemplate,
  judgeTemplate,
  monitorTemplate,
  querierTemplate,
  injectorTemplate,
  recallTemplate,
  generateTemplate,
  type EvidenceLine,
} from './generic';
