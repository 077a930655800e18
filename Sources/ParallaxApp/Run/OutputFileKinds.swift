import ParallaxFiles
import ParallaxVision

extension OutputPath.FileKind {
    /// A world map file (`--save-map`): it begins with the map magic, so a staged one cut short
    /// by a kill is told the same way.
    public static let worldMap = OutputPath.FileKind(name: "a world map", begun: WorldMapFile.startsWithMagic)

    /// An SVG plot of `results plot`: the comment ``svgPlotHeader`` is its first line.
    public static let svgPlot = OutputPath.FileKind.text("an SVG plot", header: svgPlotHeader)

    /// The first line of every plot `results plot` writes.
    public static let svgPlotHeader = "<!-- parallax results plot -->\n"
}
