/// Values a command leaves to the operating system instead of freeing them: the process exits
/// as soon as the command returns. Freeing a catalog of 100,000 products one string and table
/// at a time costs about a sixth of loading it, on one core, after the answer is ready, for
/// memory the exit gives back at once.
enum KeptUntilExit {
    private final class Box<Value> {
        let value: Value

        init(_ value: Value) {
            self.value = value
        }
    }

    static func keep<Value>(_ value: Value) {
        _ = Unmanaged.passRetained(Box(value))
    }
}
