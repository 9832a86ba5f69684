import type { Lesson } from '../lesson.ts';

/** Lesson 1: the first article's 2.1 — checkpoints longer than the interval, and min-pause. */
export const intervalAndMinPause: Lesson = {
  id: 'interval-and-min-pause',
  title: {
    en: 'Checkpoints longer than the interval, and min-pause',
    'zh-CN': 'checkpoint 比间隔还长：用 min-pause 给作业留出空闲',
  },
  paragraphs: [
    {
      en: 'Flink triggers a checkpoint every execution.checkpointing.interval. When a checkpoint takes longer than that, the next trigger has to wait: with max-concurrent-checkpoints 1 (the default) the next checkpoint starts the moment the running one completes. The job is then always checkpointing, with little room left for its own work.',
      'zh-CN':
        'Flink 每隔 execution.checkpointing.interval 触发一次 checkpoint。如果一次 checkpoint 的耗时超过这个间隔，下一次触发只能等待：在 max-concurrent-checkpoints 为 1（默认值）时，正在进行的 checkpoint 一完成，下一个就立刻开始。于是作业一直处于 checkpoint 状态，留给正常处理的余地很少。',
    },
    {
      en: 'The first metric the article tells you to watch: compare the start times of two consecutive checkpoints. Is there a gap between the end of one and the start of the next? If there is, the interval is reasonable.',
      'zh-CN': '文章建议关注的第一个指标：比对前后两次 checkpoint 的开始时间，上一次结束和下一次开始之间是否存在间隔？有，则代表当前 checkpoint 间隔设置比较合理。',
    },
    {
      en: "execution.checkpointing.min-pause (setMinPauseBetweenCheckpoints in the article's code) forces an idle pause after every completed checkpoint. It does not make a checkpoint faster; it keeps the job from checkpointing all the time.",
      'zh-CN':
        'execution.checkpointing.min-pause（即文章代码中的 setMinPauseBetweenCheckpoints）强制在每次 checkpoint 完成后留出一段空闲时间。它不会让 checkpoint 变快，只是避免作业一直处于 checkpoint 状态。',
    },
  ],
  scenario: 'lessons/interval-and-min-pause.yaml',
  compare: 'min-pause',
  steps: [
    {
      title: { en: "Run it and compare the checkpoints' start times", 'zh-CN': '运行作业，比对 checkpoint 的开始时间' },
      body: {
        en: 'The run starts by itself when the page opens on this lesson (if it is paused at 0, press Run). As the state grows, a checkpoint soon takes about 1.2 s, longer than the 1 s interval, and on the timeline each checkpoint starts right where the previous one ends: no gap.',
        'zh-CN': '页面打开这一课时，作业会自动开始运行（如果它停在 0 秒，点击“运行”）。随着状态增大，一次 checkpoint 很快就要约 1.2 秒，超过了 1 秒的间隔；在时间线上，每个 checkpoint 都紧接着上一个的结束开始，中间没有间隔。',
      },
      look_at: ['timeline'],
      actions: [],
      seen: [
        { type: 'statistic', statistic: 'end-to-end-duration', aggregate: 'p50', min: 1000 },
        { type: 'statistic', statistic: 'checkpoint-pause', aggregate: 'p50', max: 0 },
      ],
    },
    {
      title: { en: 'Set min-pause to 500 ms and run again', 'zh-CN': '把 min-pause 设为 500 ms，再运行一次' },
      body: {
        en: "Set execution.checkpointing.min-pause to 500 ms (the article's setMinPauseBetweenCheckpoints(500)); the run starts over. Now at least 500 ms pass after every checkpoint in which the job only processes records. A periodic trigger that comes sooner is dropped (MINIMUM_TIME_BETWEEN_CHECKPOINTS, not a failure) and fires again when the pause is over.",
        'zh-CN':
          '把 execution.checkpointing.min-pause 设为 500 ms（即文章中的 setMinPauseBetweenCheckpoints(500)），作业从头开始运行。现在每次 checkpoint 完成后，至少有 500 ms 只用来处理数据。来得更早的周期性触发会被丢弃（MINIMUM_TIME_BETWEEN_CHECKPOINTS，不算失败），等这段空闲结束后再触发。',
      },
      look_at: ['timeline'],
      actions: [{ kind: 'configure', option: 'execution.checkpointing.min-pause', value: '500 ms' }],
      seen: [{ type: 'statistic', statistic: 'checkpoint-pause', aggregate: 'min', min: 500 }],
    },
  ],
};
