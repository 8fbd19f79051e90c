import next from 'eslint-config-next';

export default [
  ...next,
  { ignores: ['lib/db/generated/**', '.next/**', '.data/**', 'node_modules/**'] },
];
