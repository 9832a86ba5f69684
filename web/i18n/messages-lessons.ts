/** UI text of the lesson panel (merged into `en` and `zhCN` in messages.ts); the lessons' own text is in engine/lessons/. */

export const lessonsEn = {
  'lessons.title': 'Lessons',
  'lessons.intro': 'Guided lessons on tuning checkpoints, one per point of the two Flink guides this playground is built on. Each runs a job in the simulator and ticks a step off when you have seen it happen.',
  'lessons.steps': '{n, plural, one {# step} other {# steps}}',
  'lessons.progress': '{seen} of {total} seen',
  'lessons.all': 'All lessons',
  'lessons.stepN': 'Step {n}',
  'lessons.doIt': 'Do it for me',
  'lessons.seen': 'Seen',
  'lessons.notSeen': 'Not seen yet',
  'lessons.openFailed': 'Could not open the lesson: {reason}',
  'scenario.fromLesson': 'Lesson scenario: {name}',
} as const;

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
  'lessons.openFailed': '无法打开课程：{reason}',
  'scenario.fromLesson': '课程场景：{name}',
};
