/**
 * Fills a message template: `{name}` takes a parameter as it is; `{name, plural, one {# item}
 * other {# items}}` picks the branch for the number by the locale's plural rules
 * (Intl.PluralRules, as ICU MessageFormat does), with `#` standing for the number and `=0`-style
 * branches for exact values. Chinese has one form, so its messages need no plural branches.
 */
const PLURAL = /\{(\w+), plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}/g;
const BRANCH = /(=\d+|zero|one|two|few|many|other)\s*\{([^{}]*)\}/g;
const PARAMETER = /\{(\w+)\}/g;

const rulesByLocale = new Map<string, Intl.PluralRules>();

function pluralRules(locale: string): Intl.PluralRules {
  let rules = rulesByLocale.get(locale);
  if (!rules) rulesByLocale.set(locale, (rules = new Intl.PluralRules(locale)));
  return rules;
}

export function formatMessage(template: string, params: Readonly<Record<string, string | number>> | undefined, locale: string): string {
  if (!params) return template;
  const plurals = template.replace(PLURAL, (whole, name: string, branches: string) => {
    const value = params[name];
    if (typeof value !== 'number' || !Object.hasOwn(params, name)) return whole;
    return pluralBranch(branches, value, locale).replaceAll('#', String(value));
  });
  return plurals.replace(PARAMETER, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** The exact branch (`=1`) if there is one, else the locale's category, else `other`. */
function pluralBranch(branches: string, value: number, locale: string): string {
  const found = new Map<string, string>();
  for (const [, selector, text] of branches.matchAll(BRANCH)) found.set(selector!, text!);
  return found.get(`=${value}`) ?? found.get(pluralRules(locale).select(value)) ?? found.get('other') ?? '';
}
