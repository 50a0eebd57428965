import CairoPainter
import Glibc
import StillroomCore
import Testing
import TestSupport

/// Every screen of the interface, drawn by the real painter with pango's measure, in day and night,
/// regular and largest text, on the 7" (800×480) and 3.5" (480×320) panels; compared with
/// Tests/Goldens/Interface/<state>-<size>-<appearance>-<text>.png. Each picture is also checked for
/// text that would be cut: every line of every text fits its box, nothing ends in "…", every box is
/// on screen and no two boxes of text overlap.
@Suite struct InterfaceGoldenTests {
    static let sizes = [PixelSize(width: 800, height: 480), PixelSize(width: 480, height: 320)]
    /// The screens drawn in every look; variants are drawn in two looks that between them cover each axis.
    static let screens = InterfaceSamples.states(appearance: .day, textSize: .regular).prefix(InterfaceSamples.screenCount).map(\.name)
    static let variants = InterfaceSamples.states(appearance: .day, textSize: .regular).dropFirst(InterfaceSamples.screenCount).map(\.name)

    static func state(_ name: String, _ appearance: Appearance, _ text: Settings.TextSize) -> InterfaceSamples.State {
        InterfaceSamples.states(appearance: appearance, textSize: text).first { $0.name == name }!
    }

    func render(_ name: String, _ size: PixelSize, _ appearance: Appearance, _ text: Settings.TextSize) throws {
        mkdir(Golden.interfaceFolder, 0o755)
        let painter = try ScenePainter(size: size)
        let builder = InterfaceScene(measurer: painter.textMeasurer)
        let sample = Self.state(name, appearance, text)
        let scene = builder.scene(sample.interface, model: sample.model, size: size, now: sample.now)
        painter.render(scene)
        let label = "\(name)-\(size)-\(appearance)-\(text)"
        try Golden.check(painter.frame, label, folder: Golden.interfaceFolder)
        Self.expectNothingCut(scene, painter: painter, label: label)
    }

    @Test(arguments: screens)
    func everyScreenInEveryLook(_ name: String) throws {
        for size in Self.sizes {
            for appearance in Appearance.allCases {
                for text in [Settings.TextSize.regular, .largest] { try render(name, size, appearance, text) }
            }
        }
    }

    @Test(arguments: variants)
    func variantsInTwoLooks(_ name: String) throws {
        try render(name, Self.sizes[0], .day, .regular)
        try render(name, Self.sizes[1], .night, .largest)
    }

    /// The middle text size too, on the small panel (where room is shortest), checked but not kept.
    @Test(arguments: screens + variants)
    func largeTextFitsOnTheSmallPanel(_ name: String) throws {
        let size = Self.sizes[1]
        let painter = try ScenePainter(size: size)
        let sample = Self.state(name, .night, .large)
        let scene = InterfaceScene(measurer: painter.textMeasurer).scene(sample.interface, model: sample.model, size: size, now: sample.now)
        Self.expectNothingCut(scene, painter: painter, label: "\(name)-\(size)-large")
    }

    /// Walks the focus through every stop of every screen (and the transcript line by line), at every
    /// text size on both panels, so text below the fold is proven too: the longest description, every
    /// setting, every recent session.
    @Test(arguments: screens + variants)
    func everyFocusStopShowsUncut(_ name: String) throws {
        for size in Self.sizes {
            let painter = try ScenePainter(size: size)
            let builder = InterfaceScene(measurer: painter.textMeasurer)
            for text in Settings.TextSize.allCases {
                let sample = Self.state(name, .night, text)
                let stack = sample.interface.stack
                let top = stack[stack.count - 1]
                var interfaces: [Interface] = []
                var model = sample.model
                if top.screen == .transcript {
                    // As the daemon does: the pages of the cues near the reader, so a detent is a page.
                    model.transcriptPages = builder.transcriptPages(sample.interface, model: model, size: size, now: sample.now)
                    for steps in -12...12 {
                        var ui = sample.interface
                        _ = ui.handle(.scroll(by: steps), model: model, now: sample.now)
                        interfaces.append(ui)
                    }
                } else {
                    for item in sample.interface.focusItems(on: top.screen, model: sample.model) {
                        interfaces.append(Interface(showing: Array(stack.dropLast()) + [Page(top.screen, focus: item.key)],
                                                    filter: sample.interface.filter))
                    }
                }
                for ui in interfaces {
                    let scene = builder.scene(ui, model: model, size: size, now: sample.now)
                    Self.expectNothingCut(scene, painter: painter, label: "\(name)-\(size)-\(text)-\(String(describing: ui.focus(model)))")
                }
            }
        }
    }

    static func expectNothingCut(_ scene: Scene, painter: ScenePainter, label: String,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        let screen = Rect(x: 0, y: 0, width: Double(scene.size.width), height: Double(scene.size.height))
        var boxes: [(NodeID, Rect)] = []
        for node in scene.nodes {
            guard case .text(let run) = node.content else { continue }
            let frame = run.frame
            #expect(frame.minX >= -0.5 && frame.minY >= -0.5 && frame.maxX <= screen.maxX + 0.5 && frame.maxY <= screen.maxY + 0.5,
                    "\(label): \(node.id) \(frame) leaves the screen", sourceLocation: sourceLocation)
            var whole = run
            whole.truncation = .none
            let lines = painter.lineCount(of: whole)
            #expect(Double(lines) * run.size * run.lineHeight <= frame.height + 0.5,
                    "\(label): \(node.id) needs \(lines) lines, its box holds \(frame.height / (run.size * run.lineHeight))",
                    sourceLocation: sourceLocation)
            #expect(!painter.isEllipsized(run), "\(label): \(node.id) \"\(run.text)\" is cut with …", sourceLocation: sourceLocation)
            for (other, box) in boxes {
                let overlapX = min(box.maxX, frame.maxX) - max(box.minX, frame.minX)
                let overlapY = min(box.maxY, frame.maxY) - max(box.minY, frame.minY)
                #expect(!(overlapX > 0.5 && overlapY > 0.5), "\(label): \(node.id) overlaps \(other)", sourceLocation: sourceLocation)
            }
            boxes.append((node.id, frame))
        }
    }
}
