// What an app that attaches the inspector names with it, and nothing more of the recording format
// (no decoder, index fields or plan cache keys): which app and device a stream comes from
// (`RecordingHeader`), what the inspector delivers and to what (`Record`, `DropMarker`,
// `RecordSink`), and what a failed write throws (`SystemError`).
@_exported import struct TagscopeBasics.SystemError
@_exported import struct TagscopeRecording.DropMarker
@_exported import struct TagscopeRecording.Record
@_exported import protocol TagscopeRecording.RecordSink
@_exported import struct TagscopeRecording.RecordingHeader
