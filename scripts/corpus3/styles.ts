/**
 * How each fact is to be written: a share of misspellings, gene full names, lay terms and
 * abbreviations (with the names to use in extra), the rest spread over plain writers' styles.
 */
import { fullName } from './graph';
import { shuffle } from './random';
import type { Fact } from './sheet';

// ---------- styles ----------
const STYLES = {
  misspell: 'include one realistic misspelling of an entity name (the one given in extra.misspell); everything else correct',
  fullname: 'refer to the gene by its full name (given in extra.gene_full_name), not its symbol',
  abbrev: 'use an abbreviation or clinical shorthand (e.g. tx, dx, SE, MOA, pts, or a standard abbreviation of the disease: extra.abbreviation if given)',
  lay: 'use a lay term for the disease/symptom (extra.lay_term; if none is given write a common lay term yourself)',
};
const PLAIN_DEFAULT = [
  'terse search-box query: a few keywords, no question mark',
  "a clinician's question, as a doctor would ask a colleague",
  "a student's exam question",
  'a long, wordy question with some patient or study context before the actual ask',
  'formal, precise, typo-free phrasing',
  'all lowercase, no punctuation',
  'a casual question from a patient or relative',
  "a researcher's note-style question",
  'an imperative request (List…, Name…, Give me…, Tell me…)',
  'a short preamble, then the question at the end',
];
const PLAIN_ALT = [
  'a non-native English speaker writing quickly, slightly unidiomatic grammar',
  'avoid the most obvious verb for the relation: use a synonym or a noun phrase instead',
  'a question embedded in a longer narrative (a case, a lab meeting, a news item) with the ask in the middle',
  'a pharmacist or nurse asking, with the shorthand they would use',
  'a fill-in or completion prompt ("The genes that … are: ___")',
  'a question phrased negatively or indirectly ("is it true that …", "I was told … — is that right?")',
  'British spelling and a formal register',
  'a chat message with an emoji or two and informal abbreviations (pls, w/, b/c)',
  'a grant-reviewer or journal-referee style query, dense and technical',
  'a question that starts with the answer type ("Genes: which …", "Count:", "Yes or no:")',
];
const LAY: Record<string, string> = {
  hypertension: 'high blood pressure',
  'type 2 diabetes mellitus': 'adult-onset diabetes',
  'type 1 diabetes mellitus': 'juvenile diabetes',
  'atopic dermatitis': 'eczema',
  'allergic rhinitis': 'hay fever',
  'dental caries': 'tooth decay',
  periodontitis: 'gum disease',
  nephrolithiasis: 'kidney stones',
  osteoarthritis: 'wear-and-tear arthritis',
  osteoporosis: 'brittle bones',
  'epilepsy syndrome': 'seizure disorder',
  'alcohol dependence': 'alcoholism',
  'nicotine dependence': 'smoking addiction',
  'autistic disorder': 'autism',
  'bipolar disorder': 'manic depression',
  anemia: 'low red blood cell count',
  'acquired immunodeficiency syndrome': 'AIDS',
  leprosy: "Hansen's disease",
  'coronary artery disease': 'clogged heart arteries',
  atherosclerosis: 'hardening of the arteries',
  'chronic kidney failure': 'kidney failure',
  hypothyroidism: 'underactive thyroid',
  "Graves' disease": 'overactive thyroid',
  'gestational diabetes': 'diabetes in pregnancy',
  'uterine fibroid': 'fibroids',
  'age related macular degeneration': 'macular degeneration',
  'cleft lip': 'harelip',
  'alopecia areata': 'patchy hair loss',
  'celiac disease': 'gluten intolerance',
  'idiopathic pulmonary fibrosis': 'lung scarring',
  pancreatitis: 'inflamed pancreas',
  'systemic lupus erythematosus': 'lupus',
  'hematologic cancer': 'blood cancer',
  'lymphatic system cancer': 'lymphoma',
  'urinary bladder cancer': 'bladder cancer',
  'rectum cancer': 'rectal cancer',
  'larynx cancer': 'voice box cancer',
  'pharynx cancer': 'throat cancer',
  'uterine cancer': 'womb cancer',
  'intracranial aneurysm': 'brain aneurysm',
  'endogenous depression': 'clinical depression',
  'refractive error': 'nearsightedness or farsightedness',
  'chronic obstructive pulmonary disease': "smoker's lung disease",
  'hepatitis B': 'hep B',
  'Gilles de la Tourette syndrome': "Tourette's",
  'attention deficit hyperactivity disorder': 'attention deficit disorder',
  Pruritus: 'itching',
  Dyspnea: 'shortness of breath',
  Edema: 'swelling',
  Vomiting: 'throwing up',
  Nausea: 'feeling sick',
  Syncope: 'fainting',
  Alopecia: 'hair loss',
  Vertigo: 'spinning dizziness',
  Hyperhidrosis: 'excessive sweating',
  Tinnitus: 'ringing in the ears',
  Epistaxis: 'nosebleed',
  Fatigue: 'tiredness',
  Fever: 'high temperature',
  Headache: 'sore head',
  Diarrhea: 'loose stools',
  Hemoptysis: 'coughing up blood',
  Urticaria: 'hives',
  Myalgia: 'muscle aches',
  Arthralgia: 'joint pain',
  Paresthesia: 'pins and needles',
  Anorexia: 'loss of appetite',
  Tremor: 'shaking',
  Dyspepsia: 'indigestion',
  Flatulence: 'gas',
  Hypotension: 'low blood pressure',
  Tachycardia: 'racing heart',
  Somnolence: 'drowsiness',
  Jaundice: 'yellow skin',
  'Abdominal Pain': 'stomach ache',
  Polyuria: 'peeing a lot',
  Enuresis: 'bedwetting',
  Dysmenorrhea: 'period pain',
  Photophobia: 'sensitivity to light',
  Diplopia: 'double vision',
  'Hearing Loss': 'deafness',
  Insomnia: 'trouble sleeping',
  'Hot Flashes': 'hot flushes',
  'Memory Disorders': 'memory problems',
  'Muscle Cramp': 'muscle cramps',
  'Sleep Initiation and Maintenance Disorders': 'trouble sleeping',
  Constipation: 'trouble pooping',
  Obesity: 'being very overweight',
  Depression: 'feeling low',
  Rash: 'skin rash',
  Hypertension: 'high blood pressure',
  Dysphagia: 'trouble swallowing',
  Xerostomia: 'dry mouth',
  Dysuria: 'painful urination',
  Dyspareunia: 'painful intercourse',
  Pain: 'aches',
};
const ABBR: Record<string, string> = {
  'chronic obstructive pulmonary disease': 'COPD',
  'attention deficit hyperactivity disorder': 'ADHD',
  'acquired immunodeficiency syndrome': 'AIDS',
  'rheumatoid arthritis': 'RA',
  'multiple sclerosis': 'MS',
  'systemic lupus erythematosus': 'SLE',
  'type 2 diabetes mellitus': 'T2DM',
  'type 1 diabetes mellitus': 'T1DM',
  'coronary artery disease': 'CAD',
  'amyotrophic lateral sclerosis': 'ALS',
  'polycystic ovary syndrome': 'PCOS',
  'age related macular degeneration': 'AMD',
  'abdominal aortic aneurysm': 'AAA',
  'chronic kidney failure': 'CKD',
  'idiopathic pulmonary fibrosis': 'IPF',
  'primary biliary cirrhosis': 'PBC',
  'ulcerative colitis': 'UC',
  'focal segmental glomerulosclerosis': 'FSGS',
  'hepatitis B': 'HBV',
  hypertension: 'HTN',
  'Creutzfeldt-Jakob disease': 'CJD',
  'dilated cardiomyopathy': 'DCM',
  'restless legs syndrome': 'RLS',
  'systemic scleroderma': 'SSc',
  "Crohn's disease": 'CD',
  'atopic dermatitis': 'AD',
  'Side Effect': 'SE',
};

/** Gives every fact a style; `alt` draws the plain ones from a second set of writers. */
export function assignStyles(facts: Fact[], styleSet: 'default' | 'alt'): void {
  const PLAIN = styleSet === 'alt' ? PLAIN_ALT : PLAIN_DEFAULT;
  const order = shuffle(facts.map((_, i) => i));
  const quota = {
    misspell: Math.ceil(facts.length * 0.19),
    fullname: Math.ceil(facts.length * 0.06),
    lay: Math.ceil(facts.length * 0.06),
    abbrev: Math.ceil(facts.length * 0.06),
  };
  const firstGene = (f: Fact) => f.named.find((n) => n.kind === 'Gene');
  const layOf = (f: Fact) => f.named.find((n) => (n.kind === 'Disease' || n.kind === 'Symptom' || n.kind === 'Side Effect') && LAY[n.name]);
  // a misspelt gene symbol or class name is a different string, not a typo a person makes
  const spellOf = (f: Fact) =>
    [...f.named]
      .sort((a, b) => b.name.length - a.name.length)
      .find((n) => n.name.length >= 6 && /^(Compound|Disease|Symptom|Side Effect|Anatomy)$/.test(n.kind));
  for (const kind of ['fullname', 'lay', 'abbrev', 'misspell'] as const) {
    for (const i of order) {
      if (quota[kind] <= 0) break;
      const f = facts[i];
      if (f.style) continue;
      if (kind === 'fullname') {
        const g = firstGene(f);
        if (!g) continue;
        f.extra.gene_full_name = fullName.get(g.id)!;
        f.extra.gene_symbol = g.name;
      } else if (kind === 'lay') {
        const n = layOf(f);
        if (!n) continue;
        f.extra.lay_term = LAY[n.name];
        f.extra.lay_for = n.name;
      } else if (kind === 'abbrev') {
        const d = f.named.find((n) => ABBR[n.name]);
        if (d) {
          f.extra.abbreviation = ABBR[d.name];
          f.extra.abbreviation_for = d.name;
        }
      } else {
        const n = spellOf(f);
        if (!n) continue;
        f.extra.misspell = n.name;
      }
      f.style = STYLES[kind];
      quota[kind]--;
    }
  }
  let k = 0;
  for (const i of order) if (!facts[i].style) facts[i].style = PLAIN[k++ % PLAIN.length];
}
