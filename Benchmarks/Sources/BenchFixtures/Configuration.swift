import Benchmark

/// Settings shared by every benchmark target so that the numbers are comparable.
public enum BenchSettings {
    /// Metrics recorded for every benchmark. `.instructions` is left out: it needs hardware
    /// performance counters (perf_event_open), which the Linux VMs we run on do not expose, and
    /// the tool silently reports nothing for it there. Add it back on a machine that has them.
    public static let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]

    /// Applies the shared configuration. `scalingFactor` is the number of operations per
    /// measured sample (`benchmark.scaledIterations`): `.mega` for fast code, `.kilo` for slow.
    ///
    /// Time is recorded in nanoseconds and counters as plain counts, so exported samples are
    /// exact per-sample totals (compare.sh divides them by the scaling factor).
    ///
    /// Thresholds (used by `benchmark thresholds check` against Thresholds/…/*.p90.json):
    /// - wall clock: p90 may be up to 50 % slower (the runners are noisy shared machines);
    /// - mallocs: p90 may grow by at most 1 % of the operations per sample (i.e. 0.01 malloc
    ///   per operation), so a new allocation per resolve is always flagged, even from zero.
    public static func apply(scalingFactor: BenchmarkScalingFactor) {
        let mallocSlack = max(scalingFactor.rawValue / 100, 10)
        Benchmark.defaultConfiguration = .init(
            metrics: metrics,
            timeUnits: .nanoseconds,
            units: [.mallocCountTotal: .count],
            warmupIterations: 3,
            scalingFactor: scalingFactor,
            maxDuration: .milliseconds(1_500),
            maxIterations: 1_000,
            thresholds: [
                .wallClock: .init(relative: [.p90: 50.0]),
                .mallocCountTotal: .init(absolute: [.p90: mallocSlack]),
            ]
        )
    }
}
