package io.tailstream.cli.command;

import picocli.CommandLine;

/** The version from the jar's manifest (set by the build), or "development" when run from classes. */
final class VersionProvider implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        String v = VersionProvider.class.getPackage().getImplementationVersion();
        return new String[] {"tailstream " + (v != null ? v : "development"), "Java " + Runtime.version()};
    }
}
