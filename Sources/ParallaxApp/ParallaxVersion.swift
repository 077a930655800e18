/// This build's version, as run.json, report.json, the HTML reports and the results database give it.
public enum ParallaxVersion {
    public static let current = "0.1.0"
}
