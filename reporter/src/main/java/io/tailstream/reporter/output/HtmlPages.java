package io.tailstream.reporter.output;

import freemarker.template.Configuration;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import freemarker.template.TemplateExceptionHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * What the self-contained HTML pages (the report, the trend page) share: uPlot's JS and CSS read from its WebJar to be
 * inlined, escaping for data and script inside a page, and the Freemarker set-up (HTML auto-escaping of every
 * {@code ${}} in {@code .ftlh} templates, errors rethrown). Stateless and thread safe.
 */
public final class HtmlPages {

    private HtmlPages() {}

    private static final String UPLOT_DIR = "META-INF/resources/webjars/uplot/";

    /** uPlot's minified JS, safe inside a {@code <script>} element. */
    public static String uplotJs() {
        return scriptSafe(resource(UPLOT_DIR + uplotVersion() + "/dist/uPlot.iife.min.js"));
    }

    /** uPlot's CSS. */
    public static String uplotCss() {
        return resource(UPLOT_DIR + uplotVersion() + "/dist/uPlot.min.css");
    }

    /**
     * JSON safe inside a {@code <script>} element and free of markup: {@code <}, {@code >} and {@code &} as JSON
     * unicode escapes (they only occur inside strings, e.g. a target name), so JSON.parse reads the same text.
     */
    public static String jsonSafe(String json) {
        return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
    }

    /** Text safe inside a {@code <script>} element: no {@code </script>}, no {@code <!--}. */
    public static String scriptSafe(String js) {
        return js.replace("</", "<\\/").replace("<!--", "<\\!--");
    }

    /** Freemarker reading templates next to {@code base}'s package path {@code templateDir}. */
    public static Configuration freemarker(Class<?> base, String templateDir) {
        Configuration c = new Configuration(Configuration.VERSION_2_3_34);
        c.setClassForTemplateLoading(base, templateDir);
        c.setDefaultEncoding("UTF-8");
        c.setTemplateExceptionHandler(TemplateExceptionHandler.RETHROW_HANDLER);
        c.setLogTemplateExceptions(false);
        c.setWrapUncheckedExceptions(true);
        c.setFallbackOnNullLoopVariable(false);
        // .ftlh templates escape every ${} as HTML unless ?no_esc says otherwise
        c.setRecognizeStandardFileExtensions(true);
        c.setNumberFormat("computer");
        c.setLocale(Locale.ROOT);
        return c;
    }

    /** The template rendered with {@code root}. */
    public static String render(Configuration freemarker, String template, Map<String, Object> root) {
        try {
            Template t = freemarker.getTemplate(template);
            StringWriter w = new StringWriter();
            t.process(root, w);
            return w.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("loading the template " + template, e);
        } catch (TemplateException e) {
            throw new IllegalStateException("rendering the template " + template + ": " + e.getMessage(), e);
        }
    }

    private static String uplotVersion() {
        String path = "META-INF/maven/org.webjars.npm/uplot/pom.properties";
        try (InputStream in = HtmlPages.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("uPlot WebJar not on the class path (" + path + " missing)");
            }
            java.util.Properties p = new java.util.Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + path, e);
        }
    }

    private static String resource(String path) {
        try (InputStream in = HtmlPages.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("resource " + path + " is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading resource " + path, e);
        }
    }
}
