// The controls: what a container's resolution is compared with, in the same process.
import Synchronization

/// A tiny dependency-free service.
final class Service: Sendable {}

/// Made at run time, so that it has an ordinary reference count that every reader retains.
let retainedGlobal = makeAtRunTime()

@inline(never)
func makeAtRunTime() -> Service { Service() }

/// A global `let` read through a non-inlined accessor: the caller gets a +1 reference, as from a container.
@inline(never)
func retainedGlobalAccessor() -> Service { retainedGlobal }

/// The simple design: an instance behind a `Mutex`, retained as it is read.
let mutexGlobal = Mutex(makeAtRunTime())

@inline(never)
func mutexGlobalAccessor() -> Service { mutexGlobal.withLock { $0 } }
