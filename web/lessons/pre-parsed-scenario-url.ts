/**
 * Where the site serves a lesson's scenario pre-parsed: the YAML's address with `.json` for
 * `.yaml` (public/lessons/<name>.yaml → /lessons/<name>.json). The build writes these files and
 * the dev server answers them from the YAML (node/pre-parsed-scenarios.ts); the page fetches them.
 */
export const PRE_PARSED_DIRECTORY = 'lessons';

export function preParsedScenarioUrl(yamlUrl: string): string {
  return yamlUrl.replace(/\.ya?ml$/, '.json');
}
