/** UI text of embedding and sharing (merged into `en` and `zhCN` in messages.ts). */

export const embedEn = {
  'scenario.fromLink': 'From a link: {name}',
  'embed.noScenario': 'No scenario: give the embed page ?scenario=<url> or a share link (#scenario=…).',
  'embed.badLink': 'The share link does not hold a readable scenario: {reason}',
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
} as const;

export const embedZhCN: { readonly [K in keyof typeof embedEn]: string } = {
  'scenario.fromLink': '来自链接：{name}',
  'embed.noScenario': '没有场景：请给嵌入页面加上 ?scenario=<url> 或分享链接（#scenario=…）。',
  'embed.badLink': '分享链接中没有可读取的场景：{reason}',
  'share.open': '分享 / 嵌入',
  'share.title': '分享或嵌入这个场景',
  'share.intro': '场景（连同当前配置）放在链接的 # 之后随链接传递，不会上传到任何地方。',
  'share.link': '指向本演练场的链接',
  'share.view': '嵌入的部分',
  'share.view.graph': '作业图与通道',
  'share.view.dashboard': 'Checkpoint 面板',
  'share.view.all': '全部',
  'share.iframe': '用 iframe 嵌入',
  'share.element': '用 <checkpoint-playground> 元素嵌入',
  'share.copy': '复制',
  'share.copied': '已复制',
  'share.apiNote': '嵌入页面可以用 Playground API 控制演练场：element.playground.start()、.stats() 等；或者从 allowed-origins 中列出的来源向 iframe 发送 postMessage 调用。',
};
