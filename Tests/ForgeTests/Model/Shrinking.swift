// Shrinking a failing run: the model checks' one way to find the shortest list of operations that still fails.

extension Array {
    /// The shortest list found by removing runs of operations, halving their length when none can go, on which
    /// `stillFails` holds; the operations `keep` says must stay (a barrier between phases) are never removed.
    func shrunk(keeping keep: (Element) -> Bool = { _ in false }, while stillFails: ([Element]) -> Bool) -> [Element] {
        var ops = self
        var chunk = Swift.max(1, ops.count / 2)
        while chunk >= 1 {
            var start = 0
            var removedAny = false
            while start < ops.count {
                let range = start..<Swift.min(ops.count, start + chunk)
                var candidate = ops
                candidate.replaceSubrange(range, with: ops[range].filter(keep))
                if candidate.count < ops.count, stillFails(candidate) {
                    ops = candidate
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        return ops
    }
}
