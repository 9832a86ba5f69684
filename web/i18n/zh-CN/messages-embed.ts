/** The Chinese of ../messages-embed.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { embedEn } from '../messages-embed.ts';

export const embedZhCN: { readonly [K in keyof typeof embedEn]: string } = {
  'scenario.fromLink': '来自链接：{name}',
  'embed.noScenario': '没有场景：请给嵌入页面加上 ?scenario=<url> 或分享链接（#scenario=…）。',
  'embed.badLink': '分享链接中没有可读取的场景：{reason}',
  'shareLink.tooLong': '链接中的场景有 {length} 个字符；最多只读取 {max} 个',
  'shareLink.notBase64': '链接中的场景不是 base64url 文本（字母、数字、- 和 _），不像“分享”按钮生成的那样',
  'shareLink.notUtf8': '链接中的场景不是 UTF-8 文本',
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
  'share.allowedOrigins': '允许的来源（其页面可以控制 iframe 的文档站点）',
  'share.allowedOriginsHint': '按地址栏中显示的样子填写来源，用逗号分隔，例如 https://docs.example.org, http://localhost:5173；* 表示任意来源。留空时页面只能展示演练场，不能调用它的 API。',
  'share.origin.notUrl': '允许的来源：“{entry}” 不是来源；请带上协议，例如 https://docs.example.org。',
  'share.origin.notHttp': '允许的来源：“{entry}” 不是 http 或 https 来源；只有网页可以嵌入演练场。',
  'share.origin.hasPath': '允许的来源：“{entry}” 是页面地址而不是来源；它的来源是 {origin}（只含协议、主机和端口）。',
};
