/**
 * The dashboard's Doctor tab: what the checkpoint doctor (engine/doctor/) says about the current
 * run. The findings themselves are rendered by the engine's table (web/i18n/doctor-text.ts), which
 * the CLI prints too; these are the tab's own words. Merged into `en` in messages-en.ts; the Chinese is in zh-CN/, loaded with that locale.
 */

export const doctorEn = {
  'checkpoints.tab.doctor': 'Doctor',
  'doctor.intro': 'What the checkpoint statistics of this run say is wrong, and what to change — the advice of the two tuning guides, with the figures it is based on.',
  'doctor.none': 'Nothing to fix: no rule of the checkpoint doctor applies to this run so far.',
  'doctor.findings': 'Findings',
  'doctor.openLesson': 'Lesson: {title}',
} as const;
