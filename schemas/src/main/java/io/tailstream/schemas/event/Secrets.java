package io.tailstream.schemas.event;

import java.util.regex.Pattern;

/** Masks credentials before anything leaves the process: events, archives, reports and logs. */
public final class Secrets {

    public static final String MASK = "****";

    private static final Pattern URL_USERINFO = Pattern.compile("(//[^/@:]*:)[^/@]*@");
    private static final Pattern SECRET_PARAM = Pattern.compile(
            "(?i)((?:password|passwd|pwd|secret|token|sslkey|keystorepassword|truststorepassword|clientcertificatekeystorepassword)[^=;&]*=)[^;&]*");

    private Secrets() {}

    /** A JDBC URL with passwords masked, in user-info ({@code //u:p@host}) and in parameters ({@code password=}). */
    public static String redactUrl(String url) {
        if (url == null) {
            return null;
        }
        String s = URL_USERINFO.matcher(url).replaceAll("$1" + MASK + "@");
        return SECRET_PARAM.matcher(s).replaceAll("$1" + MASK);
    }

    /** True for configuration keys whose values must never be shown. */
    public static boolean isSecretKey(String key) {
        String k = key.toLowerCase(java.util.Locale.ROOT);
        return k.contains("password") || k.contains("secret") || k.contains("token") || k.contains("credential")
                || k.endsWith("pwd") || k.contains("sasl.jaas");
    }
}
