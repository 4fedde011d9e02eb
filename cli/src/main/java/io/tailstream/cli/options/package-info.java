/** Option groups and value converters shared by the {@code tailstream} subcommands. */
package io.tailstream.cli.options;
