package dev.mnemo.eval;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A self-contained HTML evaluation report: headings, text, tables and plots as inline SVG (line
 * charts, grouped bars, histograms), with no script, no external style sheet, font or image, so
 * that the one file opens anywhere and can be archived with the run.
 *
 * <p>Written by hand: the JVM charting libraries (JFreeChart, XChart) draw to raster images or to
 * SVG only through extra export modules, with their own fonts and styles, and none emits a small
 * self-contained SVG fragment; four chart kinds over a few dozen points are easier to read as the
 * SVG they are than as a dependency. The output is well-formed XML (XHTML syntax: every element
 * closed, text escaped), so that tests parse it with the JDK's XML parser. Each plotted series is a
 * {@code <g class="series" data-series="NAME">}; each point or bar carries a {@code <title>} with
 * its values (shown as a tooltip). Not thread-safe; build, then {@link #render()}.
 */
public final class HtmlReport {

  /** A named series of (x, y) points; NaN ys are left out of the plot. */
  public record Series(String name, List<double[]> points) {
    public Series {
      Objects.requireNonNull(name, "name");
      points = List.copyOf(points);
      for (double[] p : points) {
        if (p.length != 2)
          throw new IllegalArgumentException("a point must have two values, had " + p.length);
      }
    }

    /** A series of {@code ys} at {@code xs}, which must have the same length. */
    public static Series of(String name, double[] xs, double[] ys) {
      if (xs.length != ys.length) {
        throw new IllegalArgumentException(
            "xs and ys must have the same length, were " + xs.length + " and " + ys.length);
      }
      List<double[]> ps = new ArrayList<>(xs.length);
      for (int i = 0; i < xs.length; i++) ps.add(new double[] {xs[i], ys[i]});
      return new Series(name, ps);
    }
  }

  private static final String[] PALETTE = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#637939"
  };
  private static final int W = 680;
  private static final int H = 320;
  private static final int LEFT = 56;
  private static final int RIGHT = 150;
  private static final int TOP = 30;
  private static final int BOTTOM = 46;

  private final String title;
  private final StringBuilder body = new StringBuilder();

  public HtmlReport(String title) {
    this.title = Objects.requireNonNull(title, "title");
  }

  /** A section heading. */
  public HtmlReport heading(String text) {
    body.append("<h2>").append(esc(text)).append("</h2>\n");
    return this;
  }

  /** A paragraph of plain text. */
  public HtmlReport paragraph(String text) {
    body.append("<p>").append(esc(text)).append("</p>\n");
    return this;
  }

  /** Preformatted text (a console table, a command line). */
  public HtmlReport pre(String text) {
    body.append("<pre>").append(esc(text)).append("</pre>\n");
    return this;
  }

  /** A table; every row must have as many cells as the header. */
  public HtmlReport table(List<String> header, List<List<String>> rows) {
    body.append("<table>\n<tr>");
    for (String h : header) body.append("<th>").append(esc(h)).append("</th>");
    body.append("</tr>\n");
    for (List<String> row : rows) {
      if (row.size() != header.size()) {
        throw new IllegalArgumentException(
            "a row must have " + header.size() + " cells, had " + row.size() + ": " + row);
      }
      body.append("<tr>");
      for (String c : row) body.append("<td>").append(esc(c)).append("</td>");
      body.append("</tr>\n");
    }
    body.append("</table>\n");
    return this;
  }

  /**
   * A line chart: one polyline with markers per series.
   *
   * @param logX place x on a log scale (for k = 1 .. 50), ticks at the data's x values
   * @param yMax the top of the y axis, or NaN to fit the data
   */
  public HtmlReport lineChart(
      String chartTitle,
      String xLabel,
      String yLabel,
      List<Series> series,
      boolean logX,
      double yMax) {
    return xy(chartTitle, xLabel, yLabel, series, logX, yMax, true);
  }

  /** A scatter plot: markers only, one colour per series (for tokens against recall). */
  public HtmlReport scatter(
      String chartTitle, String xLabel, String yLabel, List<Series> series, double yMax) {
    return xy(chartTitle, xLabel, yLabel, series, false, yMax, false);
  }

  private HtmlReport xy(
      String chartTitle,
      String xLabel,
      String yLabel,
      List<Series> series,
      boolean logX,
      double yMax,
      boolean lines) {
    double[] xs =
        series.stream()
            .flatMap(s -> s.points().stream())
            .filter(p -> !Double.isNaN(p[1]))
            .mapToDouble(p -> p[0])
            .filter(x -> !Double.isNaN(x) && (!logX || x > 0))
            .toArray();
    double[] ys =
        series.stream()
            .flatMap(s -> s.points().stream())
            .mapToDouble(p -> p[1])
            .filter(y -> !Double.isNaN(y))
            .toArray();
    Svg svg = new Svg(chartTitle);
    if (xs.length == 0) return svg.empty(this);
    double xMin = Arrays.stream(xs).min().orElse(0);
    double xMax = Arrays.stream(xs).max().orElse(1);
    if (!logX) xMin = Math.min(0, xMin);
    if (xMax <= xMin) xMax = xMin + 1;
    double top = Double.isNaN(yMax) ? niceCeil(Arrays.stream(ys).max().orElse(1)) : yMax;
    Scale x =
        logX
            ? new Scale(
                Math.log(xMin),
                Math.log(xMax) == Math.log(xMin) ? Math.log(xMin) + 1 : Math.log(xMax),
                true)
            : new Scale(xMin, niceCeil(xMax), false);
    Scale y = new Scale(0, top, false);
    svg.axes(
        x,
        y,
        xLabel,
        yLabel,
        logX ? Arrays.stream(xs).distinct().sorted().toArray() : ticks(x.lo, x.hi),
        ticks(0, top));
    for (int i = 0; i < series.size(); i++) {
      Series s = series.get(i);
      String colour = PALETTE[i % PALETTE.length];
      svg.out.append("<g class=\"series\" data-series=\"").append(esc(s.name())).append("\">");
      List<double[]> ok =
          s.points().stream()
              .filter(p -> !Double.isNaN(p[1]) && !Double.isNaN(p[0]) && (!logX || p[0] > 0))
              .toList();
      if (lines && ok.size() > 1) {
        svg.out
            .append("<polyline fill=\"none\" stroke=\"")
            .append(colour)
            .append("\" stroke-width=\"2\" points=\"");
        for (double[] p : ok)
          svg.out.append(f(x.px(p[0]))).append(',').append(f(y.py(p[1]))).append(' ');
        svg.out.append("\"/>");
      }
      for (double[] p : ok) {
        svg.out
            .append("<circle cx=\"")
            .append(f(x.px(p[0])))
            .append("\" cy=\"")
            .append(f(y.py(p[1])))
            .append("\" r=\"3.5\" fill=\"")
            .append(colour)
            .append("\"><title>")
            .append(esc(s.name()))
            .append(": ")
            .append(esc(xLabel))
            .append(' ')
            .append(num(p[0]))
            .append(", ")
            .append(esc(yLabel))
            .append(' ')
            .append(num(p[1]))
            .append("</title></circle>");
      }
      svg.out.append("</g>\n");
      svg.legend(i, s.name(), colour);
    }
    return svg.close(this);
  }

  /**
   * Grouped bars: one group per category, one bar per series in it.
   *
   * @param series each series' values, one per category (NaN: no bar)
   * @param yMax the top of the y axis, or NaN to fit the data
   */
  public HtmlReport barChart(
      String chartTitle, String yLabel, List<String> categories, List<Series> series, double yMax) {
    double maxY =
        series.stream()
            .flatMap(s -> s.points().stream())
            .mapToDouble(p -> p[1])
            .filter(v -> !Double.isNaN(v))
            .max()
            .orElse(Double.NaN);
    Svg svg = new Svg(chartTitle);
    if (categories.isEmpty() || series.isEmpty() || Double.isNaN(maxY)) return svg.empty(this);
    double top = Double.isNaN(yMax) ? niceCeil(maxY) : yMax;
    Scale y = new Scale(0, top, false);
    svg.axes(null, y, "", yLabel, new double[0], ticks(0, top));
    double plotW = W - LEFT - RIGHT;
    double groupW = plotW / categories.size();
    double barW = Math.max(1, groupW * 0.8 / series.size());
    for (int c = 0; c < categories.size(); c++) {
      double cx = LEFT + groupW * (c + 0.5);
      svg.out
          .append("<text class=\"tick\" x=\"")
          .append(f(cx))
          .append("\" y=\"")
          .append(H - BOTTOM + 14)
          .append("\" text-anchor=\"middle\">")
          .append(esc(categories.get(c)))
          .append("</text>\n");
    }
    for (int i = 0; i < series.size(); i++) {
      Series s = series.get(i);
      if (s.points().size() != categories.size()) {
        throw new IllegalArgumentException(
            "series "
                + s.name()
                + " must have one value per category ("
                + categories.size()
                + "), had "
                + s.points().size());
      }
      String colour = PALETTE[i % PALETTE.length];
      svg.out.append("<g class=\"series\" data-series=\"").append(esc(s.name())).append("\">");
      for (int c = 0; c < categories.size(); c++) {
        double v = s.points().get(c)[1];
        if (Double.isNaN(v)) continue;
        double x0 = LEFT + groupW * c + groupW * 0.1 + barW * i;
        double y0 = y.py(Math.min(v, top));
        svg.out
            .append("<rect x=\"")
            .append(f(x0))
            .append("\" y=\"")
            .append(f(y0))
            .append("\" width=\"")
            .append(f(barW))
            .append("\" height=\"")
            .append(f(H - BOTTOM - y0))
            .append("\" fill=\"")
            .append(colour)
            .append("\"><title>")
            .append(esc(s.name()))
            .append(", ")
            .append(esc(categories.get(c)))
            .append(": ")
            .append(num(v))
            .append("</title></rect>");
      }
      svg.out.append("</g>\n");
      svg.legend(i, s.name(), colour);
    }
    return svg.close(this);
  }

  /**
   * Overlaid histograms of each series' values (the xs of its points are ignored; the ys are the
   * samples), over common bins from 0 to the largest sample.
   */
  public HtmlReport histogram(String chartTitle, String xLabel, List<Series> samples, int bins) {
    if (bins < 1) throw new IllegalArgumentException("bins must be >= 1, was " + bins);
    double max =
        samples.stream()
            .flatMap(s -> s.points().stream())
            .mapToDouble(p -> p[1])
            .filter(v -> !Double.isNaN(v))
            .max()
            .orElse(Double.NaN);
    Svg svg = new Svg(chartTitle);
    if (Double.isNaN(max)) return svg.empty(this);
    double hi = niceCeil(max);
    double width = hi / bins;
    int[][] counts = new int[samples.size()][bins];
    int most = 1;
    for (int i = 0; i < samples.size(); i++) {
      for (double[] p : samples.get(i).points()) {
        if (Double.isNaN(p[1])) continue;
        int b = Math.min(bins - 1, Math.max(0, (int) (p[1] / width)));
        most = Math.max(most, ++counts[i][b]);
      }
    }
    Scale x = new Scale(0, hi, false);
    Scale y = new Scale(0, niceCeil(most), false);
    svg.axes(x, y, xLabel, "count", ticks(0, hi), ticks(0, y.hi));
    for (int i = 0; i < samples.size(); i++) {
      String colour = PALETTE[i % PALETTE.length];
      Series s = samples.get(i);
      svg.out.append("<g class=\"series\" data-series=\"").append(esc(s.name())).append("\">");
      for (int b = 0; b < bins; b++) {
        if (counts[i][b] == 0) continue;
        double x0 = x.px(b * width);
        double y0 = y.py(counts[i][b]);
        svg.out
            .append("<rect x=\"")
            .append(f(x0))
            .append("\" y=\"")
            .append(f(y0))
            .append("\" width=\"")
            .append(f(x.px((b + 1) * width) - x0))
            .append("\" height=\"")
            .append(f(H - BOTTOM - y0))
            .append("\" fill=\"")
            .append(colour)
            .append("\" fill-opacity=\"0.45\" stroke=\"")
            .append(colour)
            .append("\"><title>")
            .append(esc(s.name()))
            .append(": ")
            .append(counts[i][b])
            .append(" in [")
            .append(num(b * width))
            .append(", ")
            .append(num((b + 1) * width))
            .append(")</title></rect>");
      }
      svg.out.append("</g>\n");
      svg.legend(i, s.name(), colour);
    }
    return svg.close(this);
  }

  /** The whole document. */
  public String render() {
    return "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        + "<title>"
        + esc(title)
        + "</title>\n<style>\n"
        + "body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }\n"
        + "table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }\n"
        + "th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }\n"
        + "th:first-child, td:first-child { text-align: left; }\n"
        + "figure { margin: 1.5em 0; } figcaption { font-weight: 600; margin-bottom: 0.3em; }\n"
        + "svg text { font-size: 11px; fill: #333; } .axis { stroke: #444; } .grid { stroke: #e5e5e5; }\n"
        + "pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }\n"
        + "</style>\n</head>\n<body>\n<h1>"
        + esc(title)
        + "</h1>\n"
        + body
        + "</body>\n</html>\n";
  }

  /** Writes {@link #render()} to {@code file} (UTF-8). */
  public void write(Path file) {
    try {
      Files.writeString(file, render(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the HTML report " + file, e);
    }
  }

  /** Maps data to pixels along one axis. */
  private record Scale(double lo, double hi, boolean log) {
    double t(double v) {
      double u = log ? Math.log(v) : v;
      return hi == lo ? 0 : (u - lo) / (hi - lo);
    }

    double px(double v) {
      return LEFT + t(v) * (W - LEFT - RIGHT);
    }

    double py(double v) {
      return H - BOTTOM - t(v) * (H - TOP - BOTTOM);
    }
  }

  /** One chart being drawn. */
  private final class Svg {
    final StringBuilder out = new StringBuilder();
    final String chartTitle;

    Svg(String chartTitle) {
      this.chartTitle = chartTitle;
      out.append("<figure>\n<figcaption>")
          .append(esc(chartTitle))
          .append("</figcaption>\n")
          .append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
          .append(W)
          .append("\" height=\"")
          .append(H)
          .append("\" viewBox=\"0 0 ")
          .append(W)
          .append(' ')
          .append(H)
          .append("\" role=\"img\" aria-label=\"")
          .append(esc(chartTitle))
          .append("\">\n");
    }

    void axes(Scale x, Scale y, String xLabel, String yLabel, double[] xTicks, double[] yTicks) {
      for (double t : yTicks) {
        double py = y.py(t);
        out.append("<line class=\"grid\" x1=\"")
            .append(LEFT)
            .append("\" x2=\"")
            .append(W - RIGHT)
            .append("\" y1=\"")
            .append(f(py))
            .append("\" y2=\"")
            .append(f(py))
            .append("\"/>");
        out.append("<text class=\"tick\" x=\"")
            .append(LEFT - 6)
            .append("\" y=\"")
            .append(f(py + 4))
            .append("\" text-anchor=\"end\">")
            .append(num(t))
            .append("</text>\n");
      }
      if (x != null) {
        for (double t : xTicks) {
          double px = x.px(t);
          out.append("<text class=\"tick\" x=\"")
              .append(f(px))
              .append("\" y=\"")
              .append(H - BOTTOM + 14)
              .append("\" text-anchor=\"middle\">")
              .append(num(t))
              .append("</text>\n");
        }
      }
      out.append("<line class=\"axis\" x1=\"")
          .append(LEFT)
          .append("\" x2=\"")
          .append(W - RIGHT)
          .append("\" y1=\"")
          .append(H - BOTTOM)
          .append("\" y2=\"")
          .append(H - BOTTOM)
          .append("\"/>");
      out.append("<line class=\"axis\" x1=\"")
          .append(LEFT)
          .append("\" x2=\"")
          .append(LEFT)
          .append("\" y1=\"")
          .append(TOP)
          .append("\" y2=\"")
          .append(H - BOTTOM)
          .append("\"/>\n");
      out.append("<text x=\"")
          .append((LEFT + W - RIGHT) / 2)
          .append("\" y=\"")
          .append(H - 8)
          .append("\" text-anchor=\"middle\">")
          .append(esc(xLabel))
          .append("</text>");
      out.append("<text x=\"14\" y=\"")
          .append((TOP + H - BOTTOM) / 2)
          .append("\" text-anchor=\"middle\" transform=\"rotate(-90 14 ")
          .append((TOP + H - BOTTOM) / 2)
          .append(")\">")
          .append(esc(yLabel))
          .append("</text>\n");
    }

    void legend(int i, String name, String colour) {
      int ly = TOP + 16 * i;
      out.append("<g class=\"legend\"><rect x=\"")
          .append(W - RIGHT + 12)
          .append("\" y=\"")
          .append(ly)
          .append("\" width=\"10\" height=\"10\" fill=\"")
          .append(colour)
          .append("\"/><text x=\"")
          .append(W - RIGHT + 27)
          .append("\" y=\"")
          .append(ly + 9)
          .append("\">")
          .append(esc(name))
          .append("</text></g>\n");
    }

    HtmlReport empty(HtmlReport r) {
      out.append("<text x=\"")
          .append(W / 2)
          .append("\" y=\"")
          .append(H / 2)
          .append("\" text-anchor=\"middle\">")
          .append("no data")
          .append("</text>\n");
      return close(r);
    }

    HtmlReport close(HtmlReport r) {
      out.append("</svg>\n</figure>\n");
      r.body.append(out);
      return r;
    }
  }

  /** Ticks from lo to hi at a round step, about five of them. */
  static double[] ticks(double lo, double hi) {
    if (!(hi > lo)) return new double[] {lo};
    double step = niceStep((hi - lo) / 5);
    List<Double> out = new ArrayList<>();
    for (double t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
      out.add(Math.round(t / step) * step);
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static double niceStep(double raw) {
    double mag = Math.pow(10, Math.floor(Math.log10(raw)));
    double n = raw / mag;
    return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 2.5 ? 2.5 : n <= 5 ? 5 : 10) * mag;
  }

  /** The smallest round number at or above {@code v} (1, 2, 2.5, 5 times a power of ten). */
  static double niceCeil(double v) {
    if (!(v > 0)) return 1;
    double mag = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10})
      if (m * mag >= v - 1e-12) return m * mag;
    return 10 * mag;
  }

  private static String f(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  /** A value for a label: integers as such, others with up to three decimals. */
  static String num(double v) {
    if (Double.isNaN(v)) return "-";
    if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
    return String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
  }

  /** Text escaped for XML content and attribute values. */
  static String esc(String s) {
    if (s == null) return "";
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> {
          if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
            b.append(' '); // not allowed in XML 1.0
          else b.append(c);
        }
      }
    }
    return b.toString();
  }
}
