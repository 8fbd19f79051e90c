import pg from 'pg';
import fs from 'node:fs';
const password = fs.readFileSync('/work/h-aids/.data/pg.password', 'utf8').trim();
const c = new pg.Client({ host: '127.0.0.1', port: 21031, user: 'hopscope', password, database: 'hopscope' });
await c.connect();
console.log(
  (
    await c.query(
      "select method, (config->'switches'->>'aids') aids, status, count(*)::int n, sum(case when correct then 1 else 0 end)::int ok from runs where eval_job_id = 'cmwynij0e0061vj7dsyxsxryc' group by 1,2,3 order by 1,2,3",
    )
  ).rows,
);
await c.end();
