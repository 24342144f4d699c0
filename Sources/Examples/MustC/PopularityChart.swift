import ExampleSupport
import Foundation

/// The SVG of `mustc chart`: one line per movie of its popularity over time, with dated time
/// and value axes, a dot (and tooltip) per sample, and a legend naming each line.
///
/// The most popular ``maximumLines`` movies with history are drawn; the legend says how many
/// more there are. Times are shown in UTC.
struct PopularityChart {
    /// One movie's history.
    struct Series {
        /// The movie's title.
        let title: String
        /// Whose list it is on.
        let member: String
        /// Its samples, oldest first.
        let samples: [PopularitySample]
    }

    /// The most lines drawn.
    static let maximumLines = 16

    /// The movies with at least one sample, most popular (latest value) first, at most ``maximumLines``.
    let drawnSeries: [Series]
    /// How many movies with history were left out.
    let omitted: Int

    private let plot = (left: 76.0, top: 64.0, width: 620.0, height: 380.0)
    private let width = 1_000.0
    private let height = 520.0
    private static let colours = [
        "rgb(31,119,180)", "rgb(255,127,14)", "rgb(44,160,44)", "rgb(214,39,40)", "rgb(148,103,189)",
        "rgb(140,86,75)", "rgb(227,119,194)", "rgb(127,127,127)", "rgb(188,189,34)", "rgb(23,190,207)",
    ]

    /// Creates the chart.
    ///
    /// - Parameter series: each movie's title, member and samples (oldest first).
    init(series: [(title: String, member: String, samples: [PopularitySample])]) {
        let withHistory = series.filter { !$0.samples.isEmpty }
            .sorted { ($0.samples.last?.popularity ?? 0) > ($1.samples.last?.popularity ?? 0) }
        drawnSeries = withHistory.prefix(Self.maximumLines).map {
            Series(title: $0.title, member: $0.member, samples: $0.samples)
        }
        omitted = withHistory.count - drawnSeries.count
    }

    /// The chart as an SVG document.
    func svg() -> String {
        let samples = drawnSeries.flatMap(\.samples)
        let times = TimeAxis(samples.map(\.takenAt))
        let values = ValueAxis(samples.map(\.popularity))
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(n(width))" height="\#(n(height))" "#
                + #"viewBox="0 0 \#(n(width)) \#(n(height))" font-family="Helvetica, Arial, sans-serif">"#,
            "<title>Popularity on TMDB over time</title>",
            #"<rect width="100%" height="100%" fill="rgb(255,255,255)"/>"#,
            #"<text x="\#(n(plot.left))" y="28" font-size="18" font-weight="bold" fill="rgb(34,34,34)">"#
                + "Popularity on TMDB over time</text>",
            #"<text x="\#(n(plot.left))" y="48" font-size="12" fill="rgb(85,85,85)">"#
                + "\(SVGText.escape(subtitle(samples: samples)))</text>",
        ]
        lines += axes(times: times, values: values)
        lines.append(#"<g id="lines" fill="none" stroke-width="2">"#)
        for (index, series) in drawnSeries.enumerated() {
            lines += draw(
                series, colour: colour(index), dashed: index >= Self.colours.count, times: times, values: values)
        }
        lines.append("</g>")
        lines += legend()
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    private func subtitle(samples: [PopularitySample]) -> String {
        guard let first = samples.map(\.takenAt).min(), let last = samples.map(\.takenAt).max() else {
            return "No popularity history yet: add a movie with 'mustc add <title>', then run 'mustc refresh'."
        }
        let movies = "\(drawnSeries.count) movie\(drawnSeries.count == 1 ? "" : "s")"
        let count = "\(samples.count) sample\(samples.count == 1 ? "" : "s")"
        let format = DateFormatter.utc("yyyy-MM-dd HH:mm:ss")
        return "\(movies), \(count) (one per refresh that changed a value), "
            + "\(format.string(from: first)) to \(format.string(from: last)) UTC"
    }

    // MARK: Axes

    private func axes(times: TimeAxis, values: ValueAxis) -> [String] {
        let bottom = plot.top + plot.height
        var lines = [
            #"<g id="axes" font-size="11" fill="rgb(85,85,85)">"#,
            #"<rect x="\#(n(plot.left))" y="\#(n(plot.top))" width="\#(n(plot.width))" height="\#(n(plot.height))" "#
                + #"fill="rgb(250,250,250)" stroke="rgb(127,140,141)" stroke-width="1"/>"#,
        ]
        for tick in values.ticks {
            let y = self.y(tick, values)
            lines.append(
                #"<line x1="\#(n(plot.left))" y1="\#(n(y))" x2="\#(n(plot.left + plot.width))" y2="\#(n(y))" "#
                    + #"stroke="rgb(220,220,220)" stroke-width="0.8"/>"#)
            lines.append(
                #"<text x="\#(n(plot.left - 8))" y="\#(n(y + 4))" text-anchor="end">\#(values.label(tick))</text>"#)
        }
        for tick in times.ticks {
            let x = self.x(tick, times)
            lines.append(
                #"<line x1="\#(n(x))" y1="\#(n(bottom))" x2="\#(n(x))" y2="\#(n(bottom + 5))" stroke="rgb(127,140,141)"/>"#
            )
            lines.append(
                #"<text x="\#(n(x))" y="\#(n(bottom + 19))" text-anchor="middle">"#
                    + "\(SVGText.escape(times.label(tick)))</text>")
        }
        lines.append(
            #"<text x="\#(n(plot.left + plot.width / 2))" y="\#(n(bottom + 40))" text-anchor="middle" "#
                + #"font-size="12">Time (UTC)</text>"#)
        lines.append(
            #"<text x="18" y="\#(n(plot.top + plot.height / 2))" text-anchor="middle" font-size="12" "#
                + #"transform="rotate(-90 18 \#(n(plot.top + plot.height / 2)))">TMDB popularity</text>"#)
        lines.append("</g>")
        return lines
    }

    // MARK: Lines and legend

    private func draw(
        _ series: Series, colour: String, dashed: Bool, times: TimeAxis, values: ValueAxis
    ) -> [String] {
        let points = series.samples.map { (x: x($0.takenAt, times), y: y($0.popularity, values)) }
        let name = SVGText.escape("\(series.title) (\(series.member))")
        var lines = [#"<g stroke="\#(colour)"><title>\#(name)</title>"#]
        if points.count > 1 {
            let dash = dashed ? #" stroke-dasharray="6 3""# : ""
            lines.append(
                #"<polyline points="\#(points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " "))"\#(dash)/>"#)
        }
        for (sample, point) in zip(series.samples, points) {
            let tip =
                "\(series.title): \(String(format: "%.3f", sample.popularity)) at \(times.fullLabel(sample.takenAt)) UTC"
            lines.append(
                #"<circle cx="\#(n(point.x))" cy="\#(n(point.y))" r="3" fill="\#(colour)">"#
                    + "<title>\(SVGText.escape(tip))</title></circle>")
        }
        lines.append("</g>")
        return lines
    }

    private func legend() -> [String] {
        let left = plot.left + plot.width + 24
        var lines = [
            #"<g id="legend" font-size="12" fill="rgb(34,34,34)">"#,
            #"<text x="\#(n(left))" y="\#(n(plot.top + 4))" font-weight="bold">Movie (member): latest</text>"#,
        ]
        for (index, series) in drawnSeries.enumerated() {
            let y = plot.top + 26 + Double(index) * 21
            let dash = index >= Self.colours.count ? #" stroke-dasharray="6 3""# : ""
            lines.append(
                #"<line x1="\#(n(left))" y1="\#(n(y - 4))" x2="\#(n(left + 22))" y2="\#(n(y - 4))" "#
                    + #"stroke="\#(colour(index))" stroke-width="3"\#(dash)/>"#)
            let latest = series.samples.last.map { String(format: "%.3f", $0.popularity) } ?? "-"
            let label = "\(Self.shortened(series.title)) (\(series.member)): \(latest)"
            lines.append(#"<text x="\#(n(left + 30))" y="\#(n(y))">\#(SVGText.escape(label))</text>"#)
        }
        if omitted > 0 {
            let y = plot.top + 26 + Double(drawnSeries.count) * 21
            lines.append(
                #"<text x="\#(n(left))" y="\#(n(y))" fill="rgb(85,85,85)">"#
                    + "and \(omitted) less popular movie\(omitted == 1 ? "" : "s") not drawn</text>")
        }
        lines.append("</g>")
        return lines
    }

    private static func shortened(_ title: String) -> String {
        title.count <= 28 ? title : String(title.prefix(27)) + "…"
    }

    private func colour(_ index: Int) -> String { Self.colours[index % Self.colours.count] }

    private func x(_ date: Date, _ axis: TimeAxis) -> Double {
        plot.left + plot.width * axis.fraction(date)
    }

    private func y(_ value: Double, _ axis: ValueAxis) -> Double {
        plot.top + plot.height * (1 - axis.fraction(value))
    }

    private func n(_ value: Double) -> String { SVGText.number(value) }
}
