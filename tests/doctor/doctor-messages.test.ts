import { describe, expect, it } from 'vitest';
import { doctorMessage, doctorReportLines, type DoctorLocale } from '../../engine/doctor/doctor-messages.ts';
import { DOCTOR_LESSON_IDS, FINDING_CODES, type Finding } from '../../engine/doctor/finding.ts';
import { findLesson } from '../../engine/lessons/lesson-catalog.ts';

/** Every parameter any message names, with a figure: enough to fill each template. */
const PARAMS = {
  durationMs: 1240, intervalMs: 1000, pauseMs: 0, minPauseMs: 0, checkpoints: 9, vertex: 'count', startDelayMs: 900,
  endToEndMs: 950, unaligned: 'off', alignmentMs: 500, alignedTimeoutMs: 0, fromBytes: 1_000_000, toBytes: 3_000_000,
  fromId: 1, toId: 6, backend: 'HashMapStateBackend', asyncMs: 1200, parallelism: 2, sizeBytes: 600_000, syncMs: 70,
  consecutive: 3, tolerable: 0, timeoutMs: 2000, slowestCompletedMs: 1900, reason: 'Checkpoint expired before completing.',
  restores: 1, slowestMs: 1237, subtask: 0, plainSinks: 1, duplicates: 42, checkpointId: 7, slowMs: 900, othersMs: 100,
};

const finding = (code: Finding['code'], params: Finding['params'] = PARAMS): Finding => ({ code, lesson: 'interval-and-min-pause', params });

describe('the doctor’s messages', () => {
  it.each(FINDING_CODES.flatMap((code) => (['en', 'zh-CN'] as DoctorLocale[]).map((locale) => [code, locale] as const)))(
    'renders %s in %s with every placeholder filled',
    (code, locale) => {
      const message = doctorMessage(finding(code), locale);
      expect(message).not.toMatch(/\{\w+\}/);
      if (locale === 'zh-CN') expect(message).toMatch(/[\u4e00-\u9fff]/);
    },
  );

  it.each<[string, Finding['params'], DoctorLocale, RegExp]>([
    ['durations by their unit suffix', { ...PARAMS, durationMs: 1240, pauseMs: 0 }, 'en', /take 1\.2 s .* starts 0 ms after/],
    ['an unknown interval (no config) as unknown', { ...PARAMS, intervalMs: -1 }, 'en', /an interval of unknown/],
    ['an unknown interval in Chinese', { ...PARAMS, intervalMs: -1 }, 'zh-CN', /间隔是 未知/],
  ])('formats %s', (_, params, locale, expected) => {
    expect(doctorMessage(finding('always-checkpointing', params), locale)).toMatch(expected);
  });

  it.each<[DoctorLocale, RegExp, RegExp]>([
    ['en', /^findings: none$/, /lesson: interval-and-min-pause \(\?lesson=interval-and-min-pause\)/],
    ['zh-CN', /^诊断结果：无$/, /课程：interval-and-min-pause/],
  ])('prints a report head and each finding’s lesson in %s', (locale, none, lesson) => {
    expect(doctorReportLines([], locale).join('\n')).toMatch(none);
    expect(doctorReportLines([finding('always-checkpointing')], locale).join('\n')).toMatch(lesson);
  });

  it.each(DOCTOR_LESSON_IDS)('links %s, a lesson of the catalog', (id) => {
    expect(findLesson(id)?.id).toBe(id);
  });
});
