/**
 * The dashboard's Doctor tab: what the checkpoint doctor (engine/doctor/) says about the current
 * run. The findings themselves are rendered by the engine's table (web/i18n/doctor-text.ts), which
 * the CLI prints too; these are the tab's own words. Merged into `en` and `zhCN` in messages.ts.
 */

export const doctorEn = {
  'checkpoints.tab.doctor': 'Doctor',
  'doctor.intro': 'What the checkpoint statistics of this run say is wrong, and what to change — the advice of the two tuning guides, with the figures it is based on.',
  'doctor.none': 'Nothing to fix: no rule of the checkpoint doctor applies to this run so far.',
  'doctor.findings': 'Findings',
  'doctor.openLesson': 'Lesson: {title}',
} as const;

export const doctorZhCN: { readonly [K in keyof typeof doctorEn]: string } = {
  'checkpoints.tab.doctor': '诊断',
  'doctor.intro': '根据本次运行的 checkpoint 统计指出问题和应当调整的参数——建议来自两篇调优文章，并附上所依据的指标。',
  'doctor.none': '暂无需要调整的地方：到目前为止，没有哪条 checkpoint 诊断规则适用于本次运行。',
  'doctor.findings': '诊断结果',
  'doctor.openLesson': '课程：{title}',
};
