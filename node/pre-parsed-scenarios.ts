/**
 * The lessons' scenarios pre-parsed: beside each public/lessons/<name>.yaml the site serves
 * /lessons/<name>.json, the same document as JSON, so the first page (lesson 1, running) reads
 * its scenario with JSON.parse and the YAML parser stays out of its bundle. Generated from the
 * YAML, never kept as a copy: the build emits the files into dist/, the dev server answers them
 * from the YAML on each request. The YAML stays the lesson's source and what a learner opens.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { parseScenarioText } from '../engine/scenario/scenario-text.ts';
import { formatScenarioErrors } from '../engine/scenario/scenario-error.ts';
import { PRE_PARSED_DIRECTORY, preParsedScenarioUrl } from '../web/lessons/pre-parsed-scenario-url.ts';

/** The document of a scenario's YAML text as JSON text; a YAML that does not parse fails the build. */
export function preParsedScenarioJson(yaml: string, file: string): string {
  const parsed = parseScenarioText(yaml, 'yaml');
  if (!parsed.ok) throw new Error(`${file} cannot be pre-parsed: ${formatScenarioErrors(parsed.errors)}`);
  return JSON.stringify(parsed.value);
}

/** Each YAML of public/lessons/ with the address of its pre-parsed JSON (site-absolute). */
export function preParsedScenarioFiles(publicDir: string): Array<{ yamlPath: string; jsonUrl: string }> {
  const directory = join(publicDir, PRE_PARSED_DIRECTORY);
  return readdirSync(directory)
    .filter((file) => /\.ya?ml$/.test(file))
    .map((file) => ({ yamlPath: join(directory, file), jsonUrl: preParsedScenarioUrl(`/${PRE_PARSED_DIRECTORY}/${file}`) }));
}

export function preParsedScenarios(publicDir: string): Plugin {
  return {
    name: 'pre-parsed-scenarios',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = new URL(request.url ?? '/', 'http://localhost').pathname;
        const file = preParsedScenarioFiles(publicDir).find((f) => f.jsonUrl === path);
        if (!file) return next();
        response.setHeader('Content-Type', 'application/json');
        response.end(preParsedScenarioJson(readFileSync(file.yamlPath, 'utf8'), file.yamlPath));
      });
    },
    generateBundle() {
      for (const file of preParsedScenarioFiles(publicDir)) {
        this.emitFile({ type: 'asset', fileName: file.jsonUrl.slice(1), source: preParsedScenarioJson(readFileSync(file.yamlPath, 'utf8'), file.yamlPath) });
      }
    },
  };
}
