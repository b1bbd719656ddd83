import Foundation

/// Python's protobuf on a form's bodies (``FirebaseUploadBench/Form``), one interpreter kept running
/// (``PythonPasses``) that makes one pass over every body each time it is asked: `parse` only
/// gunzips (when gzip'd) and parses each; `records` also makes one record-like dict per event and
/// user property (``recordsScript``), the work our records do. `implementation` is protobuf's
/// backend (`upb`, C; `python`, its pure-Python parser), which the script checks it got.
final class FirebaseUploadPython {
  private let passes: PythonPasses

  init(_ form: FirebaseUploadBench.Form, mode: String, implementation: String) throws {
    let script = """
      import gzip, struct, sys, time, zlib
      sys.path.insert(0, sys.argv[2])
      import app_measurement_pb2 as schema
      from google.protobuf.internal import api_implementation
      assert api_implementation.Type() == sys.argv[4], api_implementation.Type()
      \(Self.recordsScript)
      to_records = sys.argv[3] == 'records'
      data = open(sys.argv[1], 'rb').read()
      bodies = []; at = 0
      while at < len(data):
          (n,) = struct.unpack_from('<I', data, at); bodies.append(data[at + 4:at + 4 + n]); at += 4 + n
      def unpack(body):
          if body[:2] == b'\\x1f\\x8b': return gzip.decompress(body)
          if body[:1] == b'\\x78': return zlib.decompress(body)
          return body
      for _ in sys.stdin:
          start = time.perf_counter(); events = 0
          for body in bodies:
              batch = schema.Batch(); batch.ParseFromString(unpack(body))
              if to_records: events += len(records(batch))
              else: events += sum(len(bundle.event) for bundle in batch.bundle)
          seconds = time.perf_counter() - start
          assert events > 0
          print(seconds, flush=True)
      """
    passes = try PythonPasses(
      script: script, arguments: [form.file.path, form.schema.path, mode, implementation],
      environment: ["PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION": implementation],
      what: "protobuf (\(implementation)) baseline (scripts/bench installs protobuf in .venv)")
  }

  /// The seconds of one pass over every body.
  func pass() throws -> Double {
    let numbers = try passes.numbers()
    guard numbers.count == 1, numbers[0] > 0 else {
      throw BenchError("\(PythonBaseline.interpreter) protobuf baseline answered no time")
    }
    return numbers[0]
  }

  /// Ends the interpreter.
  func close() { passes.close() }

  /// Python's `records(batch)`: what ``FirebaseUploadRecords`` does, as plain dicts. Per bundle its
  /// set context fields (`ListFields`), device identity (app instance id, app id, platform, model,
  /// `_id` and `_sid` user properties); per event its public name (`_vs` → `screen_view`…), app
  /// parameters apart from the SDK's `_` ones (by public name, with their short names), items as
  /// lists of dicts, origin `_o`, time, the context copied in and its place; per user property the
  /// same with its value.
  static let recordsScript = """
    SHORT = {'_vs': 'screen_view', '_e': 'user_engagement', '_s': 'session_start', '_f': 'first_open',
             '_o': 'firebase_event_origin', '_sc': 'firebase_screen_class', '_si': 'firebase_screen_id',
             '_sn': 'firebase_screen', '_pc': 'firebase_previous_class', '_pi': 'firebase_previous_id',
             '_pn': 'firebase_previous_screen', '_et': 'engagement_time_msec', '_sid': 'ga_session_id',
             '_sno': 'ga_session_number', '_fot': 'first_open_time', '_ab': 'app_background',
             '_au': 'app_update', '_ai': 'ad_impression', '_err': 'error', '_id': 'user_id'}
    SCREEN = {'_sn': 'screen_name', '_sc': 'screen_class'}
    def value(p):
        if p.HasField('string_value'): return p.string_value
        if p.HasField('int_value'): return p.int_value
        if p.HasField('double_value'): return p.double_value
        if p.HasField('float_value'): return float(p.float_value)
        if not p.nested: return None
        return [{q.name: value(q) for q in item.nested} if item.nested else value(item) for item in p.nested]
    def user_value(u):
        if u.HasField('string_value'): return u.string_value
        if u.HasField('int_value'): return u.int_value
        if u.HasField('double_value'): return u.double_value
        if u.HasField('float_value'): return float(u.float_value)
        return None
    def records(batch):
        out = []
        for b, bundle in enumerate(batch.bundle):
            place = 'bundle %d' % (b + 1)
            common = {f.name: v for f, v in bundle.ListFields() if not f.is_repeated}
            users = {u.name: user_value(u) for u in bundle.user_property}
            identity = {'device': common.get('app_instance_id'), 'app': bundle.app_id,
                        'platform': bundle.platform, 'model': bundle.device_model,
                        'user': users.get('_id'), 'session': users.get('_sid')}
            for e, event in enumerate(bundle.event):
                name = SHORT.get(event.name, event.name); screen = name == 'screen_view'
                app = {}; sdk = {}; shorts = {}; origin = None; who = identity
                for p in event.param:
                    v = value(p); short = p.name
                    if not short.startswith('_'): app[short] = v; continue
                    if short == '_o': origin = v
                    if short == '_sid': who = dict(identity, session=v)
                    if screen and short in SCREEN: public = SCREEN[short]; app[public] = v
                    else: public = SHORT.get(short, short); sdk[public] = v
                    shorts[public] = short
                notes = dict(common, place='%s event %d' % (place, e + 1), origin=origin,
                             short_name=event.name, sdk_parameters=sdk, short_names=shorts)
                method = 'logEvent' if origin in (None, 'app') else 'automaticEvent'
                out.append({'kind': 'screen' if screen else 'event',
                            'name': app.get('screen_name', name) if screen else name, 'properties': app,
                            'time': event.timestamp_millis / 1000, 'identity': who,
                            'call': {'method': method, 'name': name, 'parameters': app}, 'annotations': notes})
            for u, prop in enumerate(bundle.user_property):
                v = {'value': user_value(prop)}; name = SHORT.get(prop.name, prop.name)
                notes = dict(common, place='%s user property %d' % (place, u + 1),
                             origin='auto' if prop.name.startswith('_') else 'app', short_name=prop.name)
                out.append({'kind': 'identify', 'name': name, 'properties': v,
                            'time': prop.set_timestamp_millis / 1000, 'identity': identity,
                            'call': {'method': 'setUserProperty', 'name': name, 'parameters': v},
                            'annotations': notes})
        return out
    """
}
