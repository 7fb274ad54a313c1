import Foundation

/// Runs `body` once on each of `count` freshly started threads and returns when all have
/// finished. Every benchmark that compares 1, 2 and 4 threads goes through this helper, so the
/// 1-thread variant has exactly the same shape (thread start + join) as the others.
public func runOnThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) {
    let group = DispatchGroup()
    for _ in 0..<count {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.start()
    }
    group.wait()
}
