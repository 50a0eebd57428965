// stillroomd: the Stillroom appliance. Everything lives in StillroomDaemon; this file only starts it.
import Glibc
import StillroomDaemon

var environment: [String: String] = [:]
var entry = environ
while let pointer = entry.pointee {
    let pair = String(cString: pointer)
    if let equals = pair.firstIndex(of: "=") {
        environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
    }
    entry += 1
}
exit(DaemonMain.run(arguments: CommandLine.arguments, environment: environment))
