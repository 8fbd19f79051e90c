import { defineConfig } from 'prisma/config';

// The datasource URL is only needed by the ordinary Prisma CLI (`prisma migrate deploy`)
// on machines that can reach Prisma's engine downloads; Hopscope itself migrates
// through the WebAssembly schema engine (lib/db/schema-engine.ts).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://hopscope:hopscope@localhost:54329/hopscope' },
});
