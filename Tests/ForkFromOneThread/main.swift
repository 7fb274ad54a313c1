// A program that forks while its main thread is its only thread, for ForkTests: the child resolves, resets,
// registers, pushes, pops and makes an isolated world as its parent would. It starts no thread and imports no
// Foundation, so that nothing else runs when it forks. It exits with 0 and writes one line once the child did all
// that; otherwise it exits with 1 and writes what went wrong.
import Forge

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

final class Service {
    let id: Int
    init(id: Int) { self.id = id }
}

extension Container {
    static let cachedService = Factory(scope: .cached) { Service(id: 1) }
    static let uniqueService = Factory { Service(id: 1) }
}

func fail(_ message: String) -> Never {
    var line = "fork-from-one-thread: \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}

func expect(_ condition: Bool, _ message: String) {
    if !condition { fail("the child: \(message)") }
}

/// The threads of this process, from /proc (Linux); -1 where it cannot be read.
func threadCount() -> Int {
    guard let directory = opendir("/proc/self/task") else { return -1 }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
        if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
    }
    return count
}

let threads = threadCount()
if threads != 1 { fail("the parent has \(threads) threads before the fork, not one") }

// The parent uses Forge first: the child inherits what it made.
let first = Container.cachedService()
_ = Container.uniqueService()

// Ends when the child exits: the child holds the write end, and writes nothing.
var ends: [Int32] = [0, 0]
if pipe(&ends) != 0 { fail("pipe() failed") }
let child = fork()
if child == 0 {
    close(ends[0])
    expect(Container.cachedService() === first, "the cached instance is not the parent's")
    expect(Container.uniqueService() !== first, "a unique factory returned the cached instance")
    Container.Scope.cached.reset()
    let second = Container.cachedService()
    expect(second !== first, "the scope's reset kept the parent's instance")
    Container.cachedService.register { Service(id: 2) }
    expect(Container.cachedService().id == 2, "the registration is not in force")
    Container.Registrations.push()
    Container.cachedService.register { Service(id: 3) }
    expect(Container.cachedService().id == 3, "the registration after push() is not in force")
    Container.Registrations.pop()
    expect(Container.cachedService().id == 2, "pop() did not give back the registration")
    Container.Registrations.isolated {
        Container.cachedService.register { Service(id: 4) }
        expect(Container.cachedService().id == 4, "the isolated world's registration is not in force")
    }
    expect(Container.cachedService().id == 2, "the isolated world's registration leaked")
    Container.Registrations.reset()
    expect(Container.cachedService().id == 1, "Registrations.reset() did not return to the factory's closure")
    exit(0)
}
if child < 0 { fail("fork() failed") }
close(ends[1])
var reader = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
if poll(&reader, 1, 20_000) != 1 {
    kill(child, SIGKILL)
    fail("the child has not exited after 20 seconds")
}
var status: Int32 = 0
waitpid(child, &status, 0)
if status != 0 { fail("the child ended with status \(status)") }
print("the child of a single-threaded parent resolved, reset, registered, pushed, popped and isolated")
