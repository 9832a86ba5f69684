/**
 * The scenario validator's words in the UI's language. The engine writes its problems in English
 * (the CLI and the Playground API print them as they are, like Flink's own exceptions); the page
 * shows them in the learner's language. The engine builds its messages from a small set of
 * templates, so each template is matched here by a pattern and rendered in Chinese, with the
 * pieces it quotes (values, option keys, ids, lists of names) left as the user wrote them.
 *
 * A message no rule knows is shown in English rather than garbled; the test
 * `tests/i18n/validation-messages.test.ts` feeds the validator a corpus of broken scenarios and
 * fails on any message, allowed-text or note that comes out untranslated.
 */
import type { ScenarioError } from '../../engine/scenario/scenario-error.ts';
import type { Locale } from './messages.ts';

type Render = (...groups: string[]) => string;

/** Whole texts that appear as they are (nouns for "expected …", fixed sentences). */
const PHRASES: Readonly<Record<string, string>> = {
  'a cluster description': '集群描述',
  'a fault': '故障',
  'a filter description': '过滤器描述',
  'a job (its vertices and edges)': '作业（它的顶点和边）',
  'a list of edges': '边的列表',
  'a list of expectations': '期望的列表',
  'a list of faults': '故障的列表',
  'a list of strings': '字符串列表',
  'a list of vertices': '顶点的列表',
  'a map of costs': '成本映射',
  'a scale description': 'scale 运行时的描述',
  runtime: '运行时',
  'only a scenario with runtime: scale reads this section': '只有 runtime: scale 的场景才读取这一部分',
  'runtime: scale, or leave scale out': 'runtime: scale，或去掉 scale 部分',
  'the page runs scenarios with runtime: records; run a scale scenario with ckpt-lab run': '页面只运行 runtime: records 的场景；scale 场景请用 ckpt-lab run 运行',
  'a run description (until)': '运行描述（until）',
  'a scenario': '场景',
  'a source description': '数据源描述',
  'a vertex': '顶点',
  'an edge': '边',
  'an expectation': '期望',
  'a string': '字符串',
  'a non-empty string': '非空字符串',
  'a number': '数字',
  'an integer': '整数',
  'a duration': '时长',
  'a memory size': '内存大小',
  aggregate: '聚合函数',
  'fault type': '故障类型',
  'filter function': '过滤函数',
  'map function': '映射函数',
  partitioning: '分区方式',
  'source kind': '数据源类型',
  'vertex type': '顶点类型',
  'sink kind': 'Sink 类型',
  'expectation type': '期望类型',
  'job status': '作业状态',
  'checkpoint statistic': 'checkpoint 统计指标',
  'statistic aggregate': '统计方式',
  'checkpoint failure reason': 'checkpoint 失败原因',
  'restore source': '恢复来源',
  'restore origin': '恢复所读的状态类型',
  'local recovery fallback reason': '本地恢复回退原因',
  'a statistic expectation needs a min, a max or both': 'statistic 期望需要 min、max 或两者都给',
  'a catch-up-time expectation needs a min, a max or both': 'catch-up-time 期望需要 min、max 或两者都给',
  'min, max': 'min、max',
  value: '取值',
  'one of the allowed values': '允许的取值之一',
  'true or false': 'true 或 false',
  'a list': '列表',
  'an object': '对象',
  nothing: '空值',
  'the id of a vertex': '某个顶点的 id',
  'a job graph without cycles (a DAG)': '没有环的作业图（DAG）',
  'at least one vertex of type source': '至少一个 source 类型的顶点',
  'at least one vertex of type sink': '至少一个 sink 类型的顶点',
  'at least one strings': '至少一个字符串',
  'at least one vertices': '至少一个顶点',
  'any number': '任意数字',
  'has no value': '没有值',
  'has no value (an empty map)': '没有值（空映射）',
  'no value given': '没有给出值',
  'required field is missing': '缺少必填字段',
  'the list is empty': '列表为空',
  'empty duration': '时长为空',
  'empty memory size': '内存大小为空',
  'empty string': '空字符串',
  'it does not start with a number': '它不是以数字开头',
  'is set twice (once nested, once as a dotted key)': '设置了两次（一次是嵌套写法，一次是带点的键）',
  'the job has no source': '作业没有数据源',
  'the job has no sink; Flink only runs operators that lead to a sink': '作业没有 Sink；Flink 只运行通向 Sink 的算子',
  'unknown Flink option (or one the playground does not model)': '未知的 Flink 配置项（或 playground 未模拟的配置项）',
  'the scenario could not be read': '无法读取场景',
  'a scenario of ordinary size': '普通大小的场景',
  'each key once per map': '每个映射中每个键只出现一次',
  'the text nests maps and lists too deeply to be read': '文本中映射和列表嵌套太深，无法读取',
  'expected a string (one line of text)': '应为字符串（一行文本）',
  'with no exclusive and no floating buffers an input channel can never receive a record': '没有独占缓冲区也没有浮动缓冲区，输入通道永远收不到记录',
  'RocksDB options have no effect with state.backend.type hashmap': 'state.backend.type 为 hashmap 时，RocksDB 配置项不起作用',
  'the hashmap state backend ignores it; only state.backend.type rocksdb takes incremental checkpoints':
    'hashmap 状态后端会忽略它；只有 state.backend.type 为 rocksdb 时才做增量检查点',
  'has no effect on incremental RocksDB checkpoints, whose files are already compressed': '对增量 RocksDB 检查点不起作用，它们的文件已经压缩过',
  'execution.checkpointing.local-backup.enabled is false, so there is no local copy to recover from':
    'execution.checkpointing.local-backup.enabled 为 false，所以没有可用于恢复的本地副本',
  'lower-case letters, digits and "-", starting with a letter': '小写字母、数字和 "-"，以字母开头',
  'set only `execution.checkpointing.num-retained`': '只设置 `execution.checkpointing.num-retained`',
  'the option keys listed in public/scenarios/scenario.schema.json': 'public/scenarios/scenario.schema.json 中列出的配置键',
  'hash, rebalance, broadcast, or equal parallelism on both ends': 'hash、rebalance、broadcast，或两端并行度相同',
  'such as 500 ms, 10 s or 1 min (a whole number and a unit: ns, µs/us, ms, s, min/m, h, d; no unit = ms)':
    '例如 500 ms、10 s 或 1 min（整数加单位：ns、µs/us、ms、s、min/m、h、d；不写单位即 ms）',
  'such as 64mb or 32 kb (a whole number and a unit: b, kb, mb, gb, tb, in powers of 1024; no unit = bytes)':
    '例如 64mb 或 32 kb（整数加单位：b、kb、mb、gb、tb，按 1024 的幂计；不写单位即字节）',
};

const VERTEX_KINDS = 'source|map|filter|keyed-aggregate|window|window-join|sink';

/**
 * Templates with parts, most specific first. `tr` renders a nested part (a noun, a value
 * description, a range) through the same tables.
 */
const RULES: ReadonlyArray<readonly [RegExp, Render]> = [
  [/^(.+) \(a map of fields\)$/, (what) => `${tr(what)}（字段映射）`],
  [/^expected a map of Flink options, like (.+)$/, (example) => `应为 Flink 配置项的映射，例如 ${example}`],
  [/^expected (.+), got (.+)$/, (what, got) => `应为${tr(what)}，实际是${tr(got)}`],
  [/^the number (.+)$/, (n) => `数字 ${n}`],
  [/^the string (.+)$/, (s) => `字符串 ${s}`],
  [/^unknown field (.+)$/, (name) => `未知字段 ${name}`],
  [/^unknown (time|memory) unit (.+) in (.+)$/, (kind, unit, text) => `${text} 中的${kind === 'time' ? '时间' : '内存'}单位 ${unit} 无效`],
  [/^unknown (aggregate|checkpoint failure reason|checkpoint statistic|local recovery fallback reason|restore origin|restore source|expectation type|fault type|filter function|job status|map function|partitioning|sink kind|source kind|statistic aggregate|vertex type|value) (.+)$/, (kind, name) => `未知的${tr(kind)} ${name}`],
  [/^unsupported scenario version (.+)$/, (version) => `不支持的场景版本 ${tr(version)}`],
  [/^(.+) does not start with a number$/, (text) => `${text} 不是以数字开头`],
  [/^(".+") has no output; Flink drops operators that do not lead to a sink$/, (id) => `${id} 没有输出；Flink 会丢弃不通向 Sink 的算子`],
  [/^(".+") has parallelism (\d+), so it has no subtask (\d+)$/, (id, p, i) => `${id} 的并行度是 ${p}，所以没有子任务 ${i}`],
  [/^(".+") is a (\S+) vertex with keyed state, so its input must be hash-partitioned \(Flink's keyBy\)$/, (id, kind) => `${id} 是带键控状态的 ${kind} 顶点，所以它的输入必须按 hash 分区（Flink 的 keyBy）`],
  [/^(".+") is a sink, and a sink cannot have outputs$/, (id) => `${id} 是 Sink，Sink 不能有输出`],
  [/^(".+") is a source, and a source cannot have inputs$/, (id) => `${id} 是数据源，数据源不能有输入`],
  [/^(.+) is not a field of an? (.+?) \(it belongs to (.+)\)$/, (name, owner, belongs) => `${name} 不是 ${owner} 的字段（它属于 ${belongs}）`],
  [/^(.+) is not one of the allowed values$/, (value) => `${value} 不是允许的取值`],
  [/^(.+) is not valid here$/, (value) => `${value} 在这里无效`],
  [/^(.+) is not a finite (duration|memory size)$/, (v, kind) => `${v} 不是有限的${tr(`a ${kind}`)}`],
  [/^(.+) is not a memory size: (.+)$/, (v, why) => `${v} 不是内存大小：${tr(why)}`],
  [/^(.+) is not a whole number; use a smaller unit$/, (v) => `${v} 不是整数；请用更小的单位`],
  [/^(.+) is not a whole number; Flink durations are whole numbers, write (.+)$/, (v, good) => `${v} 不是整数；Flink 的时长是整数，请写 ${good}`],
  [/^(.+) is not a whole number; Flink durations are whole numbers$/, (v) => `${v} 不是整数；Flink 的时长是整数`],
  [/^memory sizes cannot be negative$/, () => '内存大小不能为负数'],
  [/^(.+) must be a power of 2 \(Flink's memory segment rule\)$/, (v) => `${v} 必须是 2 的幂（Flink 的内存段规则）`],
  [/^false, or set (\S+) to (.+)$/, (key, value) => `false，或把 ${key} 设为 ${value}`],
  [/^(.+) is out of range: must be (.+)$/, (value, range) => `${value} 超出范围：必须${tr(range)}`],
  [/^(.+) is out of range$/, (value) => `${value} 超出范围`],
  [/^(.+) disagrees with config taskmanager\.numberOfTaskSlots (.+)$/, (a, b) => `${a} 与配置 taskmanager.numberOfTaskSlots ${b} 不一致`],
  [/^a number is read as whole bytes; got (.+)$/, (n) => `数字按整字节读取；实际是 ${n}`],
  [/^a number is read as whole milliseconds; write (.+) instead of (.+)$/, (good, bad) => `数字按整毫秒读取；请写 ${good} 而不是 ${bad}`],
  [/^duplicate vertex id (.+)$/, (id) => `重复的顶点 id ${id}`],
  [/^durations cannot be negative \(got (.+)\)$/, (v) => `时长不能为负数（实际是 ${v}）`],
  [/^memory sizes cannot be negative \(got (.+)\)$/, (v) => `内存大小不能为负数（实际是 ${v}）`],
  [/^forward partitioning does not allow a change of parallelism, but (".+") has (\d+) and (".+") has (\d+)$/, (a, pa, b, pb) => `forward 分区不允许改变并行度，但 ${a} 是 ${pa}，${b} 是 ${pb}`],
  [/^no vertex has the id (.+)$/, (id) => `没有 id 为 ${id} 的顶点`],
  [/^required because source (.+) is unbounded \(it has no count\)$/, (ids) => `必填，因为数据源 ${ids} 是无界的（没有 count）`],
  [/^sets (`.+`) to (.+), but (`.+`) already sets it to (.+)$/, (a, va, b, vb) => `把 ${a} 设为 ${va}，但 ${b} 已经把它设为 ${vb}`],
  [/^the cluster has no (.+)$/, (name) => `集群中没有 ${name}`],
  [/^the edges form a cycle: (.+)$/, (cycle) => `这些边形成了环：${cycle}`],
  [new RegExp(`^the (${VERTEX_KINDS}) vertex (".+") has no input$`), (kind, id) => `${kind} 顶点 ${id} 没有输入`],
  [new RegExp(`^the (${VERTEX_KINDS}) vertex (".+") has (\\d+) inputs \\(from (.+)\\)$`), (kind, id, n, from) => `${kind} 顶点 ${id} 有 ${n} 个输入（来自 ${from}）`],
  [
    /^the job needs (\d+) slots \(its largest vertex parallelism, with Flink's default slot sharing\) but the cluster has (\d+): (\d+) host\(s\) × (\d+) TaskManager\(s\) per host × (\d+) slot\(s\) per TaskManager$/,
    (need, have, hosts, tms, slots) =>
      `作业需要 ${need} 个 slot（按 Flink 默认的 slot 共享，即最大的顶点并行度），但集群只有 ${have} 个：${hosts} 台主机 × 每台 ${tms} 个 TaskManager × 每个 TaskManager ${slots} 个 slot`,
  ],
  [/^unaligned checkpoints need (\S+) (\S+), but it is (.+)$/, (key, value, actual) => `非对齐检查点要求 ${key} 为 ${value}，但它是 ${actual}`],
  [/^heartbeat timeout (.+) is shorter than heartbeat\.interval (.+)$/, (t, i) => `心跳超时 ${t} 比 heartbeat.interval ${i} 还短`],
  [/^write-buffer-ratio (.+) plus high-prio-pool-ratio (.+) is more than 1$/, (a, b) => `write-buffer-ratio ${a} 加上 high-prio-pool-ratio ${b} 大于 1`],
  [/^has no effect unless (\S+) is true$/, (key) => `除非 ${key} 为 true，否则不起作用`],
  [/^an interval below (.+) turns periodic checkpoints off, as in Flink$/, (v) => `间隔小于 ${v} 会关闭周期性检查点，与 Flink 相同`],
  [/^value_max (.+) is less than value_min (.+)$/, (max, min) => `value_max ${max} 小于 value_min ${min}`],
  [/^(JSON|YAML) syntax error at line (\d+), column (\d+): (.+)$/, (lang, line, col, reason) => `${lang} 语法错误，第 ${line} 行第 ${col} 列：${tr(reason)}`],
  [/^YAML could not be read: (.+)$/, (reason) => `无法读取 YAML：${tr(reason)}`],
  [/^the scenario text is ([\d,]+) characters long; nothing was read$/, (n) => `场景文本有 ${n} 个字符；没有读取任何内容`],
  [/^is nested more than (\d+) levels deep \(or refers to itself\)$/, (n) => `嵌套超过 ${n} 层（或引用了自身）`],
  [/^the document holds more than ([\d,]+) values \(maps, lists and scalars\)$/, (n) => `文档包含超过 ${n} 个值（映射、列表和标量）`],
  [/^is set twice \(JSON at line (\d+), column (\d+)\); a later value would silently replace the first$/, (line, col) => `设置了两次（JSON 第 ${line} 行第 ${col} 列）；后一个值会悄悄覆盖前一个`],
  [/^(\d+) is more than the cluster's (\d+) slots, so the live run cannot have rescaled to it$/, (p, slots) => `${p} 超过集群的 ${slots} 个 slot，所以实时运行不可能扩缩到它`],
  // allowed-texts
  [/^a (duration|memory size) of (.+), (such as .+)$/, (kind, range, syntax) => `${tr(`a ${kind}`)}，${tr(range)}，${tr(syntax)}`],
  [/^a (duration|memory size) (such as .+)$/, (kind, syntax) => `${tr(`a ${kind}`)}，${tr(syntax)}`],
  [/^(an integer|a number) (at least|greater than|at most|less than) (.+)$/, (noun, bound, rest) => `${tr(noun)}，${tr(`${bound} ${rest}`)}`],
  [/^(an integer|a number) of (.+)$/, (noun, range) => `${tr(noun)}，${tr(range)}`],
  [/^(.+) and (at most|less than) (.+)$/, (lower, bound, v) => `${tr(lower)}且${tr(`${bound} ${v}`)}`],
  [/^at least (\d+) slots in total, or lower the parallelism$/, (n) => `总共至少 ${n} 个 slot，或降低并行度`],
  [/^at most ([\d,]+) characters \(MAX_SCENARIO_TEXT_LENGTH\)$/, (n) => `至多 ${n} 个字符（MAX_SCENARIO_TEXT_LENGTH）`],
  [/^at most (\d+) levels of maps and lists$/, (n) => `至多 ${n} 层映射和列表`],
  [/^at least (.+)$/, (v) => `至少 ${v}`],
  [/^at most (.+)$/, (v) => `至多 ${v}`],
  [/^greater than (.+)$/, (v) => `大于 ${v}`],
  [/^less than (.+)$/, (v) => `小于 ${v}`],
  [/^a subtask index from (\d+) to (\d+)$/, (a, b) => `从 ${a} 到 ${b} 的子任务序号`],
  [/^an edge from (".+") towards a sink$/, (id) => `一条从 ${id} 通往 Sink 的边`],
  [/^an id not used by (.+)$/, (path) => `一个 ${path} 未使用的 id`],
  [/^exactly (\d+) inputs? \(left, then right, in edge order\)$/, (n) => `恰好 ${n} 个输入（按边的顺序，先左后右）`],
  [/^exactly (\d+) inputs?$/, (n) => `恰好 ${n} 个输入`],
  [/^(.+), or leave one of the two out$/, (v) => `${v}，或者两者只写一个`],
  [/^(.+), or (.+) \((.+)\)$/, (v, sentinel, meaning) => `${tr(v)}，或 ${sentinel}（${meaning}）`],
  // notes
  [/^(`.+`) is deprecated; use (.+)$/, (old, replacement) => `${old} 已弃用；请使用 ${replacement.replace(' and ', ' 和 ')}`],
  [/^(`[^`]+`): (.+)$/, (key, finding) => `${key}：${tr(finding)}`],
  [/^periodic checkpoints are off because (\S+) is not set$/, (key) => `没有设置 ${key}，所以周期性检查点已关闭`],
  [/^(faults\[\d+\]) \((\S+) at (.+)\) comes after the run ends at (.+), so it will not happen$/, (path, type, at, end) => `${path}（${type}，在 ${at}）晚于运行结束时间 ${end}，所以不会发生`],
];

/** A comma-separated list of names or values (`hash, rebalance`, `at, type, host`, `tm-0 … tm-3`): shown as it is. */
const NAME_LIST = /^[\w$.\-"`…]+(?:(?:, | … )[\w$.\-"`…]+)*$/;

function tr(text: string): string {
  const phrase = PHRASES[text];
  if (phrase !== undefined) return phrase;
  for (const [pattern, render] of RULES) {
    const match = pattern.exec(text);
    if (match) return render(...match.slice(1));
  }
  return text;
}

/** `text` (a validator message, allowed-text or note) in `locale`; English comes back unchanged. */
export function localizeValidationText(text: string, locale: Locale): string {
  if (locale === 'en' || NAME_LIST.test(text)) return text;
  return tr(text);
}

/** Whether `text` has a rendering in Chinese (or is a bare list of names that needs none). */
export function hasValidationTranslation(text: string): boolean {
  return NAME_LIST.test(text) || tr(text) !== text;
}

/** A validator error with its message and allowed-text in `locale` (paths and suggestions are the user's own words). */
export function localizeScenarioError(error: ScenarioError, locale: Locale): ScenarioError {
  const localized: ScenarioError = { ...error, message: localizeValidationText(error.message, locale) };
  if (error.allowed !== undefined) localized.allowed = localizeValidationText(error.allowed, locale);
  return localized;
}
