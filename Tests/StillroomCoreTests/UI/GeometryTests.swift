import Testing
import StillroomCore

@Suite struct GeometryTests {
    @Test func enclosingRoundsOutwards() {
        #expect(PixelRect(enclosing: Rect(x: 10.3, y: 4.9, width: 5.4, height: 0.2)) == PixelRect(x: 10, y: 4, width: 6, height: 2))
        #expect(PixelRect(enclosing: Rect(x: 2, y: 3, width: 4, height: 5)) == PixelRect(x: 2, y: 3, width: 4, height: 5))
        #expect(PixelRect(enclosing: Rect(x: -1.5, y: -0.5, width: 1, height: 1)) == PixelRect(x: -2, y: -1, width: 2, height: 2))
    }

    @Test func intersectionUnionAndTouching() {
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10), b = PixelRect(x: 5, y: 5, width: 10, height: 10)
        #expect(a.intersection(b) == PixelRect(x: 5, y: 5, width: 5, height: 5))
        #expect(a.union(b) == PixelRect(x: 0, y: 0, width: 15, height: 15))
        let beside = PixelRect(x: 10, y: 0, width: 4, height: 4)
        #expect(!a.intersects(beside))
        #expect(a.touches(beside))
        #expect(!a.touches(PixelRect(x: 11, y: 0, width: 4, height: 4)))
        #expect(a.intersection(PixelRect(x: 20, y: 20, width: 1, height: 1)).isEmpty)
    }

    @Test func pixelSizeParses() {
        #expect(PixelSize(parsing: "800x480") == PixelSize(width: 800, height: 480))
        #expect(PixelSize(parsing: "480×320") == PixelSize(width: 480, height: 320))
        #expect(PixelSize(parsing: "800") == nil)
        #expect(PixelSize(parsing: "0x480") == nil)
        #expect(PixelSize(parsing: "axb") == nil)
    }

    @Test(arguments: DisplayRotation.allCases)
    func rotationMapsEveryPixelOnceAndBack(_ rotation: DisplayRotation) {
        let logical = PixelSize(width: 5, height: 3)
        let panel = rotation.swapsAxes ? PixelSize(width: 3, height: 5) : logical
        #expect(rotation.logicalSize(panel: panel) == logical)
        var seen = Set<[Int]>()
        for y in 0..<logical.height {
            for x in 0..<logical.width {
                let p = rotation.panelPoint(x: x, y: y, logical: logical)
                #expect(p.x >= 0 && p.x < panel.width && p.y >= 0 && p.y < panel.height)
                seen.insert([p.x, p.y])
                let back = rotation.logicalPoint(x: p.x, y: p.y, logical: logical)
                #expect(back.x == x && back.y == y)
            }
        }
        #expect(seen.count == logical.area)
        // A rectangle maps to the rectangle of its mapped pixels.
        let rect = PixelRect(x: 1, y: 0, width: 3, height: 2)
        let mapped = rotation.panelRect(rect, logical: logical)
        #expect(mapped.area == rect.area)
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                let p = rotation.panelPoint(x: x, y: y, logical: logical)
                #expect(mapped.contains(x: p.x, y: p.y))
            }
        }
    }

    @Test func clockwiseQuarterTurnPutsTheTopLeftAtTheTopRight() {
        let logical = PixelSize(width: 800, height: 480)
        let p = DisplayRotation.clockwise90.panelPoint(x: 0, y: 0, logical: logical)
        #expect(p.x == 479 && p.y == 0)
        #expect(DisplayRotation(degrees: "270") == .clockwise270)
        #expect(DisplayRotation(degrees: "45") == nil)
    }
}
