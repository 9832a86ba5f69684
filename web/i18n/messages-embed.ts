/** UI text of embedding and sharing (merged into `en` in messages-en.ts; the Chinese is in zh-CN/, loaded with that locale). */

export const embedEn = {
  'scenario.fromLink': 'From a link: {name}',
  'embed.noScenario': 'No scenario: give the embed page ?scenario=<url> or a share link (#scenario=…).',
  'embed.badLink': 'The share link does not hold a readable scenario: {reason}',
  'shareLink.tooLong': "the link's scenario is {length} characters long; at most {max} are read",
  'shareLink.notBase64': "the link's scenario is not base64url text (letters, digits, - and _), as the Share button writes it",
  'shareLink.notUtf8': "the link's scenario is not UTF-8 text",
  'share.open': 'Share / embed',
  'share.title': 'Share or embed this scenario',
  'share.intro': 'The scenario, with its current configuration, travels inside the link (after the #), so nothing is uploaded anywhere.',
  'share.link': 'Link to this playground',
  'share.view': 'Embedded part',
  'share.view.graph': 'Job graph and channels',
  'share.view.dashboard': 'Checkpoint dashboard',
  'share.view.all': 'Everything',
  'share.iframe': 'Embed with an iframe',
  'share.element': 'Embed with the <checkpoint-playground> element',
  'share.copy': 'Copy',
  'share.copied': 'Copied',
  'share.apiNote':
    'The embedding page can drive the playground with the Playground API: element.playground.start(), .stats(), … or postMessage calls to the iframe from origins listed in allowed-origins.',
  'share.allowedOrigins': 'Allowed origins (docs sites whose pages may drive the iframe)',
  'share.allowedOriginsHint':
    'Origins as the address bar shows them, separated by commas, such as https://docs.example.org, http://localhost:5173; * for any. Left empty, a page shows the playground but cannot call its API.',
  'share.origin.notUrl': 'Allowed origins: “{entry}” is not an origin; write it with its scheme, such as https://docs.example.org.',
  'share.origin.notHttp': 'Allowed origins: “{entry}” is not an http or https origin; only web pages embed the playground.',
  'share.origin.hasPath': 'Allowed origins: “{entry}” is a page address, not an origin; its origin is {origin} (scheme, host and port only).',
} as const;
