/**
 * The checkpoint doctor's findings in the page's language. The renderings live in the engine
 * (engine/doctor/doctor-messages.ts), because `ckpt-lab inspect --lang zh-CN` prints them too and
 * the engine may not import from web/; this is the page's entry to them. The type below fails to
 * compile when the page gets a language the doctor does not speak.
 */
import { doctorMessage, type DoctorLocale } from '../../engine/doctor/doctor-messages.ts';
import type { Finding } from '../../engine/doctor/finding.ts';
import type { Locale } from './messages.ts';

const DOCTOR_LOCALE: { readonly [L in Locale]: DoctorLocale } = { en: 'en', 'zh-CN': 'zh-CN' };

/** What the finding says, with its figures, in `locale`. */
export function doctorFindingText(finding: Finding, locale: Locale): string {
  return doctorMessage(finding, DOCTOR_LOCALE[locale]);
}
