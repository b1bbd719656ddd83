// What an app that attaches the inspector names with it: `RecordingHeader` (which app and device a
// stream comes from), `Record` and `RecordSink` (what the inspector delivers, and to what).
@_exported import TagscopeRecording
