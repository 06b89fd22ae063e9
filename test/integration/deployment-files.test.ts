// Over 300 lines on purpose: the Dockerfile, the build context and the production dependency tree, checked in one place.
// Checks the deployment files by reading them, in seconds and without a container engine (the
// deployment test, test/deployment, builds and runs them): the Dockerfile's stages, what .dockerignore keeps out of the build context, and that the production dependency
// tree (what `npm ci --omit=dev` installs from the lock file) runs the gateway and the worker.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import dockerignore from '@balena/dockerignore';
import { Copy, DockerfileParser, Env, From, JSONInstruction } from 'dockerfile-ast';
import type { Instruction } from 'dockerfile-ast';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');

interface Stage {
  name: string | null;
  instructions: Instruction[];
}

/** The Dockerfile's build stages, each with its instructions (continuation lines joined). */
function parseStages(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    if (instruction instanceof From) stages.push({ name: instruction.getBuildStage(), instructions: [] });
    stages.at(-1)?.instructions.push(instruction);
  }
  return stages;
}

const ofKind = (stage: Stage, keyword: string): Instruction[] => stage.instructions.filter((i) => i.getKeyword() === keyword);

/** The shell commands of a RUN, each split into words: `a && b; c` gives [[a], [b], [c]]. */
function shellCommands(run: Instruction): string[][] {
  if (run instanceof JSONInstruction && run.getJSONStrings().length > 0) {
    return [run.getJSONStrings().map((s) => JSON.parse(s.getValue()) as string)];
  }
  return (run.getArgumentsContent() ?? '')
    .split(/&&|\|\||[;|\n]/)
    .map((command) => command.trim().split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0);
}

const npmInstalls = (stage: Stage): string[][] =>
  ofKind(stage, 'RUN')
    .flatMap(shellCommands)
    .filter(([tool, verb]) => tool === 'npm' && ['ci', 'install', 'i', 'clean-install'].includes(verb ?? ''));

/** COPY or ADD sources and destination, and the stage copied from (`--from`), if any. */
function copies(stage: Stage): { from: string | null; sources: string[]; dest: string }[] {
  return stage.instructions
    .filter((i) => i instanceof Copy || i.getKeyword() === 'ADD')
    .map((i) => {
      const paths =
        i instanceof JSONInstruction && i.getJSONStrings().length > 0
          ? i.getJSONStrings().map((s) => JSON.parse(s.getValue()) as string)
          : i.getArguments().map((a) => a.getValue());
      const from = i instanceof Copy ? (i.getFlags().find((f) => f.getName() === 'from')?.getValue() ?? null) : null;
      return { from, sources: paths.slice(0, -1), dest: paths.at(-1) ?? '' };
    });
}

/** A COPY source as a path in the build context: `./`, `/` and `.` are all the whole context. */
const inContext = (p: string): string => path.posix.normalize(p).replace(/^\/+|\/+$/g, '') || '.';

/** A path as the stage sees it, relative to its WORKDIR: `/app/client/dist/` in /app is `client/dist`. */
function inStage(stage: Stage, p: string): string {
  const workdir = ofKind(stage, 'WORKDIR').at(-1)?.getArgumentsContent()?.trim() ?? '/';
  return path.posix.relative(workdir, path.posix.resolve(workdir, p)) || '.';
}

describe('the Dockerfile', () => {
  const stages = parseStages(read('Dockerfile'));
  const final = stages.at(-1)!;

  it('has a build stage and a separate final stage', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
  });

  it('installs only production dependencies in the final stage', () => {
    const installs = npmInstalls(final);
    expect(installs.length).toBeGreaterThan(0);
    for (const words of installs) {
      expect(words).toContain('--omit=dev');
      expect(words).not.toContain('--include=dev');
    }
  });

  it('runs the final stage as a user other than root', () => {
    const user = ofKind(final, 'USER').at(-1)?.getArgumentsContent()?.trim();
    expect(user).toBeTruthy();
    expect(['root', '0']).not.toContain(user?.split(':')[0]);
  });

  it('sets NODE_ENV=production in the final stage', () => {
    const nodeEnv = ofKind(final, 'ENV')
      .flatMap((env) => (env instanceof Env ? env.getProperties() : []))
      .filter((p) => p.getName() === 'NODE_ENV')
      .at(-1);
    expect(nodeEnv?.getValue()).toBe('production');
  });

  it('copies the client bundle from an earlier stage that builds it', () => {
    const bundle = copies(final).find((c) => c.from !== null && c.sources.some((s) => /(^|\/)client\/dist\/?$/.test(s)));
    expect(bundle, 'a COPY --from=<stage> of client/dist').toBeDefined();
    const builder = stages.slice(0, -1).find((s) => s.name === bundle!.from);
    expect(builder, `a stage named ${bundle!.from}`).toBeDefined();
    expect(bundle!.sources.map((s) => inStage(builder!, s))).toContain('client/dist');
    expect(inStage(final, bundle!.dest)).toBe('client/dist');
    expect(ofKind(builder!, 'RUN').flatMap(shellCommands)).toContainEqual(['npm', 'run', 'build']);
  });

  it('never copies the whole build context into the final stage', () => {
    const whole = copies(final)
      .filter((c) => c.from === null)
      .flatMap((c) => c.sources)
      .filter((s) => ['.', '*'].includes(inContext(s)));
    expect(whole).toEqual([]);
  });

  it('starts the gateway through tsx by default and leaves health checks to Compose', () => {
    const cmd = ofKind(final, 'CMD').at(-1);
    expect(cmd instanceof JSONInstruction ? cmd.getJSONStrings().map((s) => JSON.parse(s.getValue()) as string) : null).toEqual([
      'node',
      '--import',
      'tsx',
      'server/src/main.ts',
    ]);
    expect(ofKind(final, 'HEALTHCHECK')).toEqual([]);
  });
});

describe('the .dockerignore file', () => {
  // The package is CommonJS with an ES-style `default`, which is where its typings put the factory.
  const context = dockerignore.default().add(read('.dockerignore'));
  const dockerfile = parseStages(read('Dockerfile'));

  it.each([
    '.env',
    '.env.production',
    'server/.env',
    'worker/.env.local',
    'server.pem',
    'keys/server.key',
    'certs/client.p12',
    'keys/service-account.json',
    'duet-firebase-adminsdk-abc12.json',
    'gcp-credentials.json',
    '.npmrc',
    '.git/config',
    'node_modules/vite/package.json',
    'client/node_modules/react/index.js',
    'client/dist/index.html',
    'test-results/report.json',
    'coverage/index.html',
    'docs/screenshots/landing.png',
    '.ci/run',
  ])('keeps %s out of the build context', (file) => {
    expect(context.ignores(file)).toBe(true);
  });

  it.each(['server/src/main.ts', 'platform/migrations/x.sql', 'package.json', 'package-lock.json', '.env.example'])(
    'keeps %s in the build context',
    (file) => {
      expect(context.ignores(file)).toBe(false);
    },
  );

  it('keeps every file the Dockerfile copies from the build context', () => {
    const sources = dockerfile.flatMap((stage) => copies(stage).filter((c) => c.from === null).flatMap((c) => c.sources));
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.map(inContext).filter((s) => context.ignores(s))).toEqual([]);
  });

  it('keeps every source file and migration the image runs', () => {
    const files = ['server/src', 'platform/migrations', 'worker/src', 'contracts/src', 'ratings/src', 'platform/src'].flatMap((dir) =>
      sourceFiles(dir, /\.(ts|sql)$/),
    );
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => context.ignores(f))).toEqual([]);
  });
});

/** Files under `dir` (relative to the root) matching `pattern`, minus tests. */
function sourceFiles(dir: string, pattern: RegExp): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name) && !/\.(test|spec)\.[cm]?[jt]s$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** A package in `npm ls --json --long` output, with the packages it depends on. */
interface NpmLsNode {
  path?: string | undefined;
  dependencies?: Record<string, NpmLsNode> | undefined;
}
const ZNpmLsNode: z.ZodType<NpmLsNode> = z.lazy(() =>
  z.object({ path: z.string().optional(), dependencies: z.record(z.string(), ZNpmLsNode).optional() }),
);

/** What `npm ci --omit=dev` installs from the lock file: package names and their folders. */
function productionTree(): { names: Set<string>; folders: Set<string> } {
  const ls = spawnSync('npm', ['ls', '--omit=dev', '--all', '--json', '--long', '--package-lock-only'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (ls.status !== 0) throw new Error(`npm ls failed (is package-lock.json in step with package.json?):\n${ls.stdout}\n${ls.stderr}`);
  const names = new Set<string>();
  const folders = new Set<string>();
  const walk = (node: NpmLsNode): void => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      names.add(name);
      if (child.path) folders.add(path.relative(root, child.path).split(path.sep).join('/'));
      walk(child);
    }
  };
  walk(ZNpmLsNode.parse(JSON.parse(ls.stdout)));
  return { names, folders };
}

/** Bare specifiers a module loads when it runs: type-only imports and exports are erased. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      !node.isTypeOnly &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((s) => !s.startsWith('.') && !s.startsWith('/') && !s.startsWith('node:') && !builtinModules.includes(s));
}

const packageName = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** The node_modules folders Node looks in for `name` from `file`, nearest first. */
function lookupFolders(file: string, name: string): string[] {
  const folders: string[] = [];
  for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
    folders.push(dir === '.' ? `node_modules/${name}` : `${dir}/node_modules/${name}`);
    if (dir === '.') return folders;
  }
}

/** Top-level packages the final stage deletes after `npm ci` (`rm -rf node_modules/<name>`). */
function removedAfterInstall(): Set<string> {
  const final = parseStages(read('Dockerfile')).at(-1)!;
  const commands = ofKind(final, 'RUN').flatMap(shellCommands);
  const installed = commands.findIndex(([tool, verb]) => tool === 'npm' && verb === 'ci');
  return new Set(
    commands
      .slice(installed + 1)
      .filter(([tool]) => tool === 'rm')
      .flatMap((words) => words.slice(1).filter((w) => !w.startsWith('-')))
      .map((p) => /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(p)?.[1])
      .filter((name): name is string => name !== undefined),
  );
}

describe('the production dependency tree', () => {
  const tree = productionTree();
  const removed = removedAfterInstall();

  it('holds tsx, which runs the gateway and the worker', () => {
    expect(tree.names.has('tsx')).toBe(true);
  });

  it.each(['vitest', 'typescript', 'eslint', 'playwright-core', 'firebase-tools', 'vite', 'react'])(
    'leaves out the development package %s',
    (name) => {
      // npm installs some optional peers (typescript, for valibot) even with --omit=dev: then the
      // image must delete them, and nothing it runs may import them (checked below).
      expect(tree.names.has(name) && !removed.has(name)).toBe(false);
    },
  );

  it('holds every package that the gateway, the worker and the shared code import', () => {
    const files = ['server/src', 'worker/src', 'contracts/src', 'ratings/src', 'platform/src'].flatMap((dir) => sourceFiles(dir, /\.[cm]?[jt]s$/));
    expect(files.length).toBeGreaterThan(0);
    const missing = files.flatMap((file) =>
      runtimeImports(file)
        .filter((specifier) => !lookupFolders(file, packageName(specifier)).some((folder) => tree.folders.has(folder) && !removed.has(packageName(specifier))))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(missing).toEqual([]);
  });
});
