import tseslint from 'typescript-eslint';

/**
 * Lint: the import rules each folder's README states, enforced. Each entry names a folder and the folders it must
 * never import; `npm test` runs it (`npm run lint`). Type-aware rules are left to `tsc --noEmit` (strict).
 */
const never = (folders, { typesOf = [] } = {}) => ({
  patterns: [
    ...folders.map((folder) => ({
      group: [`**/${folder}`, `**/${folder}/**`],
      message: `This folder's README forbids imports from ${folder}/.`,
    })),
    ...typesOf.map((folder) => ({
      group: [`**/${folder}`, `**/${folder}/**`],
      allowTypeImports: true,
      message: `This folder may take only types from ${folder}/ (import type).`,
    })),
  ],
});

const boundaries = [
  // shared/ is imported by both sides and imports neither.
  { files: ['shared/**/*.ts'], forbid: ['bff', 'widget', 'dashboard', 'test'] },
  // The checkout widget and the dashboard are browser code: never the server, never each other.
  { files: ['widget/**/*.ts'], forbid: ['bff', 'dashboard', 'test'] },
  { files: ['dashboard/**/*.ts'], forbid: ['bff', 'widget', 'test'] },
  // The server serves the built browser apps; it never imports their sources.
  { files: ['bff/**/*.ts'], forbid: ['widget', 'dashboard', 'test'] },
  // Routes parse, call a service, present: no SQL, so no repositories, storage or query builder.
  { files: ['bff/routes/**/*.ts'], forbid: ['repositories', 'storage'] },
  // Repositories are the SQL: they know nothing of services, routes, plugins or presenters.
  { files: ['bff/repositories/**/*.ts'], forbid: ['services', 'routes', 'plugins', 'presenters', 'jobs/runner.ts'] },
  // The domain is types and rules: no I/O of any kind.
  { files: ['bff/domain/**/*.ts'], forbid: ['services', 'routes', 'plugins', 'presenters', 'repositories', 'storage'] },
  // Presenters are pure functions of domain objects and of the read models' rows (types only).
  { files: ['bff/presenters/**/*.ts'], forbid: ['routes', 'plugins', 'storage'], typesOf: ['repositories'] },
  // Services hold the rules; they do not know the HTTP layer.
  { files: ['bff/services/**/*.ts'], forbid: ['routes', 'plugins'] },
];

export default tseslint.config(
  { ignores: ['dist/**', 'dist-*/**', 'node_modules/**', 'data/**', 'test-results/**', 'widget/public/**', '**/*.d.ts'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
    plugins: { '@typescript-eslint': tseslint.plugin },
  },
  ...boundaries.map(({ files, forbid, typesOf }) => ({
    files,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', never(forbid, { typesOf })] },
  })),
);
