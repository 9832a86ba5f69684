/** The Chinese of ../messages-doctor.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { doctorEn } from '../messages-doctor.ts';

export const doctorZhCN: { readonly [K in keyof typeof doctorEn]: string } = {
  'checkpoints.tab.doctor': '诊断',
  'doctor.intro': '根据本次运行的 checkpoint 统计指出问题和应当调整的参数——建议来自两篇调优文章，并附上所依据的指标。',
  'doctor.none': '暂无需要调整的地方：到目前为止，没有哪条 checkpoint 诊断规则适用于本次运行。',
  'doctor.findings': '诊断结果',
  'doctor.openLesson': '课程：{title}',
};
