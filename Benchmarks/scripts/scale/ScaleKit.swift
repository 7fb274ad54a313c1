// The harness of Benchmarks/scale.sh: a sink, a clock, and the malloc counters of the counting pass.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps `value` alive and opaque to the optimizer.
@_optimize(none)
@inline(never)
public func sink<T>(_ value: T) {}

/// Makes the caller produce `value` and keep it until the call returns, specialized where it is called. For a
/// declaration, which `sink` would count wrongly: passing a `Factory<S1>` to the unspecialized `sink` makes the
/// runtime instantiate that generic type's metadata, an allocation per factory that no app's use of a declared
/// factory needs (a call site is specialized, and reads no metadata).
@inlinable
public func keep<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Nanoseconds on the monotonic clock.
public func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// What the preloaded counter has seen, or `nil` when it is not preloaded (the timing pass).
public struct MallocCounts: Sendable {
    public var allocations: Int64
    public var frees: Int64
    public var bytes: Int64

    public static func read() -> MallocCounts? {
        guard let handle = dlopen(nil, RTLD_NOW),
              let allocations = dlsym(handle, "scale_malloc_allocations"),
              let frees = dlsym(handle, "scale_malloc_frees"),
              let bytes = dlsym(handle, "scale_malloc_bytes")
        else { return nil }
        typealias Count = @convention(c) () -> Int64
        return MallocCounts(
            allocations: unsafeBitCast(allocations, to: Count.self)(),
            frees: unsafeBitCast(frees, to: Count.self)(),
            bytes: unsafeBitCast(bytes, to: Count.self)())
    }
}

/// Runs `body` once and prints its time, or, in the counting pass, the allocations it made and the ones it still
/// holds, with their bytes: `RESULT <library> <measure> <key> <value>` lines for scale_table.py.
public func phase(_ library: String, _ measure: String, _ body: () -> Void) {
    let counts = MallocCounts.read()
    let start = now()
    body()
    let end = now()
    if let before = counts, let after = MallocCounts.read() {
        report(library, measure, "allocations", Double(after.allocations - before.allocations))
        report(library, measure, "held", Double((after.allocations - after.frees) - (before.allocations - before.frees)))
        report(library, measure, "bytes", Double(after.bytes - before.bytes))
    } else {
        report(library, measure, "ns", Double(end - start))
    }
}

/// Times `body`, run `repeats` times after one run that warms it, and prints the median run's time.
public func warmPhase(_ library: String, _ measure: String, repeats: Int = 15, _ body: () -> Void) {
    guard MallocCounts.read() == nil else { return }
    body()
    var times: [UInt64] = []
    for _ in 0..<repeats {
        let start = now()
        body()
        times.append(now() - start)
    }
    report(library, measure, "ns", Double(times.sorted()[repeats / 2]))
}

public func report(_ library: String, _ measure: String, _ key: String, _ value: Double) {
    print("RESULT \(library) \(measure) \(key) \(value)")
}

/// The command line: `<executable> flat1000|flat10000|graph|...`.
public var scenario: String { CommandLine.arguments.dropFirst().first ?? "" }
