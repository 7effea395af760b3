import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes the next numbered migration from src/db/schema/ (index.ts); committed migrations are never edited.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
});
