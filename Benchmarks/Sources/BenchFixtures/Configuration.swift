import Benchmark

/// Settings shared by every benchmark target so that the numbers are comparable.
public enum BenchSettings {
    /// Metrics recorded for every benchmark. `.instructions` is left out: it needs hardware
    /// performance counters (perf_event_open), which the Linux VMs we run on do not expose, and
    /// the tool silently reports nothing for it there. Add it back on a machine that has them.
    public static let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]

    /// Makes `configuration(scalingFactor: .kilo)` the default for the calling target.
    public static func apply() {
        Benchmark.defaultConfiguration = configuration(scalingFactor: .kilo)
    }

    /// `scalingFactor` is the number of operations per measured sample
    /// (`benchmark.scaledIterations`): `.kilo` everywhere, except the threaded scenarios of
    /// fast libraries, which use `.mega` so that starting threads stays negligible.
    ///
    /// Time is recorded in nanoseconds and counters as plain counts, so exported samples are
    /// exact per-sample totals (compare.sh divides them by the scaling factor).
    ///
    /// Thresholds. `benchmark thresholds check` compares only p90 with the checked-in
    /// Thresholds/…/*.p90.json; `benchmark baseline check A B` compares every percentile listed.
    /// - mallocs: p90 may grow by at most 1 % of the operations per sample (0.01 malloc per
    ///   operation, at least 10), so a new allocation on a path is always flagged, even from
    ///   zero. Allocation counts are deterministic, so this is the check to trust.
    /// - wall clock: p90 may be up to 4x the recorded value, which only catches gross
    ///   regressions: on a shared VM, the p90 of an unchanged build moves far above its recorded
    ///   value while other work runs (Benchmarks/README.md, "Regression checks (thresholds)").
    ///   Between two runs on the same quiet machine (`baseline check`), the median may not be
    ///   more than 25 % slower.
    public static func configuration(scalingFactor: BenchmarkScalingFactor) -> Benchmark.Configuration {
        let mallocSlack = max(scalingFactor.rawValue / 100, 10)
        return .init(
            metrics: metrics,
            timeUnits: .nanoseconds,
            units: [.mallocCountTotal: .count],
            warmupIterations: 3,
            scalingFactor: scalingFactor,
            maxDuration: .seconds(1),
            maxIterations: 10_000,
            thresholds: [
                .wallClock: .init(relative: [.p50: 25.0, .p90: 300.0]),
                .mallocCountTotal: .init(absolute: [.p90: mallocSlack]),
            ]
        )
    }
}
