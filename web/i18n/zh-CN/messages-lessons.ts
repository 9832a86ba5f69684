/** The Chinese of ../messages-lessons.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { lessonsEn } from '../messages-lessons.ts';

export const lessonsZhCN: { readonly [K in keyof typeof lessonsEn]: string } = {
  'lessons.title': '课程',
  'lessons.intro': '关于 checkpoint 调优的引导式课程，每课对应本演练场所依据的两篇 Flink 文章中的一个要点。每一课都在模拟器中运行一个作业，当你亲眼看到某一步的现象时，就会把这一步打勾。',
  'lessons.steps': '{n} 步',
  'lessons.progress': '已看到 {seen}/{total}',
  'lessons.all': '全部课程',
  'lessons.stepN': '第 {n} 步',
  'lessons.doIt': '帮我操作',
  'lessons.seen': '已看到',
  'lessons.notSeen': '尚未看到',
  'lessons.lookAt': '请看：',
  'lessons.lookAt.tab': '{panel} › {tab}',
  'lessons.lookAt.inTab': '{region}（{where}）',
  'lessons.lookAt.show': '在页面上显示（已用框线标出）',
  'lessons.openFailed': '无法打开课程：{reason}',
  'scenario.fromLesson': '课程场景：{name}',
};
