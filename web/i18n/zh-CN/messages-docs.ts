/** The Chinese of ../messages-docs.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { docsEn } from '../messages-docs.ts';

export const docsZhCN: { readonly [K in keyof typeof docsEn]: string } = {
  'docs.title': '在文档中嵌入演练场',
  'docs.lead':
    '演练场在浏览器里运行一个 Flink 风格的小作业，讲解 checkpoint 的页面因此可以让读者亲眼看到 checkpoint 的过程。本页用三种嵌入方式各嵌入一次：iframe、<checkpoint-playground> 元素，以及由页面自己的脚本通过 postMessage 控制的 iframe。每个演示下方都是运行它的代码：复制过去，把地址改成演练场所在的位置，周围的文字由你来写。',
  'docs.openPlayground': '打开演练场',
  'docs.codeLabel': '这个演示的代码',
  'docs.iframe.title': '1. iframe：一节课程的场景',
  'docs.iframe.p1':
    '最简单的嵌入方式是用 iframe 引入 embed.html，由地址决定显示什么：view=dashboard 显示运行控制、时间线和 Checkpoint 面板；scenario= 指定场景文件，这里用的是第 1 课的场景；autostart=0 表示等读者自己点击运行；lang=en 或 lang=zh-CN 指定它的语言（不写则跟随浏览器）。',
  'docs.iframe.p2':
    '点击运行并观察时间线：随着状态增大，一次 checkpoint 的耗时超过了 1 秒的间隔，于是上一个 checkpoint 一完成，下一个就立刻开始，中间没有间隔，作业一直处于 checkpoint 状态。课程接下来会设置 execution.checkpointing.min-pause，并展示它留出的空闲。',
  'docs.iframe.openLesson': '在演练场中打开这节课程',
  'docs.element.title': '2. 元素：场景直接写在页面里',
  'docs.element.p1':
    '先加载一次元素的脚本，然后在要放演示的位置写 <checkpoint-playground>。场景可以放在元素内部的 <script type="text/yaml"> 中，整个演示都由页面自己携带：这里是在 EXACTLY_ONCE 下按用户统计点击数，每 500 毫秒做一次 checkpoint，写入两阶段提交的 Sink。元素会替你生成 iframe，element.playground 就是 Playground API。',
  'docs.element.p2':
    '可用的属性：scenario（URL、内置场景的文件名或场景文本本身）、view（graph、dashboard 或 all）、autostart、lang、height 和 allowed-origins。把 lang 改成另一种语言，正在运行的演练场会就地切换过去，运行照常继续。页面自身的来源始终可以调用它。',
  'docs.drive.title': '3. 由页面自己的脚本通过 postMessage 控制',
  'docs.drive.p1':
    '页面可以像读者一样使用演练场：加载场景、运行、杀掉一个 TaskManager、读取统计数据。每次调用都是发往 iframe 窗口的一条消息，并得到一个结果作为回复。演练场只回应嵌入它的页面，而且只回应允许的来源。',
  'docs.drive.p2':
    '下面的按钮在第 8 课（Task 本地恢复）的场景上运行下方的脚本：先运行到 5 秒，再杀掉 TaskManager tm-0。作业重启后，两个 Count subtask 回到原来的 slot，从所在主机上的本地副本恢复，而不是从远程 checkpoint 存储恢复；Source 和 Sink 没有 keyed state，它们很小的状态从远程读取。',
  'docs.drive.p3':
    '切换本页的语言，三个演示都会跟着切换，而且不会重新加载：页面通过 postMessage 对每个 iframe 调用 setLanguage，并修改元素的 lang 属性。场景文件里如果像这几个场景一样写了两种语言的名称和描述，演示就会显示新语言的版本。',
  'docs.drive.run': '运行到 5 秒',
  'docs.drive.kill': '杀掉 tm-0，再运行 3 秒',
  'docs.drive.waiting': '正在等待演练场开始监听…',
  'docs.drive.ready': '演练场已在监听：请点击按钮。',
  'docs.drive.summary': '作业时间 {time} · 已完成 {completed} 个 checkpoint · {restores, plural, =0 {尚未恢复} other {已恢复 # 次}}',
  'docs.drive.lastRestore': '最近一次恢复中，{local} 个 subtask 从本地副本读取，{remote} 个 subtask 从远程存储读取。',
  'docs.drive.failed': '演练场的回复：{message}',
  'docs.sites.title': '嵌入到其他网站',
  'docs.sites.p1':
    '位于其他来源的文档站点要把自己的来源写进 iframe 的 allowed-origins 参数（用逗号分隔，* 表示任意来源）；演练场的“分享 / 嵌入”对话框会把它写进 iframe 代码片段。来自其他页面的调用，或者来自不是 iframe 父窗口的调用，都会被拒绝且不产生任何效果。',
  'docs.sites.p2':
    '浏览器可能像屏蔽第三方 Cookie 一样，不允许其他网站中的 iframe 使用存储。这时嵌入的演练场会用一句话说明这一点，不再提供真实 Worker，模拟器的 checkpoint 只保存在内存中。',
  'docs.sites.p3':
    '文档的 CI 可以检查演示是否仍能说明它要讲的要点：给场景写上 expectations，然后运行 npx ckpt-lab check scenario.yaml；有期望不满足时，它以非零状态退出，并为每个不满足的期望给出报告。',
};
