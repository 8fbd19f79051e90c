export { defineTemplate, getTemplate, listTemplates } from './registry';
export { judgeTemplate, monitorTemplate, generateTemplate } from './generic';
