// The recording format is written and read with the foundation's JSON cursor and writer, files and
// worker thread: whoever reads or writes recordings uses them too.
@_exported import TagscopeBasics
