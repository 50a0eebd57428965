import CairoPainter
import Glibc
import StillroomCore
import Testing
import TestSupport

/// Golden images: a rendered frame compared, as decoded pixels, with Tests/Goldens/Display/<name>.png.
///
/// A pixel matches when no channel differs by more than `tolerance` (anti-aliasing may move by a step
/// or two between pixman builds, e.g. SSE2 on a PC and NEON on a Pi); every pixel must match. On a
/// mismatch `<name>.actual.png` and `<name>.diff.png` are written next to the golden. With
/// STILLROOM_UPDATE_GOLDENS=1 the goldens are (re)written instead — never under CI (`CI=true`): there it
/// is a failure and the frame is compared as usual, because a rewrite compares nothing and would pass
/// any picture. A commit that changes goldens says why, and its author opened and judged the changed
/// PNGs (docs/display.md, "Goldens").
enum Golden {
    static let folder = RepositoryPaths.root + "/Tests/Goldens/Display"
    static let tolerance = 8

    static var updating: Bool {
        guard let value = getenv("STILLROOM_UPDATE_GOLDENS") else { return false }
        return String(cString: value) == "1"
    }

    /// The interface's goldens (every screen), beside the display's.
    static let interfaceFolder = RepositoryPaths.root + "/Tests/Goldens/Interface"

    static func check(_ frame: Frame, _ name: String, folder: String = Golden.folder,
                      updating: Bool = Golden.updating, underCI: Bool = Requirement.underCI,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = "\(folder)/\(name).png"
        let actualPath = "\(folder)/\(name).actual.png", diffPath = "\(folder)/\(name).diff.png"
        _ = unlink(actualPath)
        _ = unlink(diffPath)
        if updating && underCI {
            Issue.record(Comment(rawValue: "\(name): goldens may not be rewritten in CI (STILLROOM_UPDATE_GOLDENS=1 with CI=true); "
                                 + "rewrite them on a workstation, open the changed PNGs, and say why in the commit"),
                         sourceLocation: sourceLocation)
        } else if updating {
            try PNGImage.write(frame, to: path)
            return
        }
        guard Files.exists(path) else {
            try PNGImage.write(frame, to: actualPath)
            Issue.record(Comment(rawValue: "no golden \(path): run with STILLROOM_UPDATE_GOLDENS=1 (actual written to \(actualPath))"),
                         sourceLocation: sourceLocation)
            return
        }
        let golden = try PNGImage.read(path)
        guard golden.size == frame.size else {
            try PNGImage.write(frame, to: actualPath)
            Issue.record(Comment(rawValue: "\(name): golden is \(golden.size), frame is \(frame.size)"), sourceLocation: sourceLocation)
            return
        }
        let comparison = FrameComparison(golden, frame, tolerance: tolerance)
        if comparison.mismatchedPixels > 0 {
            try PNGImage.write(frame, to: actualPath)
            try PNGImage.write(FrameComparison.diffImage(golden, frame), to: diffPath)
            let area = comparison.changedArea.map { "\($0)" } ?? "-"
            let message = "\(name): \(comparison.mismatchedPixels) pixels differ by more than \(tolerance) "
                + "(largest \(comparison.largestDifference)) in \(area); see \(actualPath) and \(diffPath)"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }
}
