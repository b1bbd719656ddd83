/// Examples of the query API that `tagscope help uitests` prints and the tests run against a real
/// `listen`.
public enum QueryAPIExamples {
  /// A UI test scope from Python with the standard library only: `with scope("checkout")` begins
  /// the scope, ends it, and fails with the violations' messages; `wait` and `check` read the
  /// scope's records only. `TAGSCOPE_URL` names the `listen` (`http://127.0.0.1:7531`).
  public static let python = #"""
    """A UI test scope from Python, standard library only (tagscope help uitests)."""
    import json
    import os
    import urllib.error
    import urllib.parse
    import urllib.request

    TAGSCOPE = os.environ.get("TAGSCOPE_URL", "http://127.0.0.1:7531")


    def api(method, route, **query):
        url = f"{TAGSCOPE}/tagscope/v1/{route}?{urllib.parse.urlencode(query)}"
        try:
            request = urllib.request.Request(url, method=method)
            with urllib.request.urlopen(request, timeout=330) as reply:
                return json.load(reply)
        except urllib.error.HTTPError as error:
            if error.code == 408:  # a wait's timeout: the matching records that did arrive
                return json.load(error)
            raise AssertionError(f"{route}: {error.code} {error.read().decode()}") from None


    class ScopeFailed(AssertionError):
        pass


    class scope:
        """with scope("checkout"): ... ends the scope, fails with its violations."""

        def __init__(self, name, source=None):
            self.name, self.source = name, source

        def __enter__(self):
            source = {"source": self.source} if self.source else {}
            api("POST", "scope/begin", name=self.name, **source)
            return self

        def wait(self, records, count=1, timeout=10):
            found = api("GET", "wait", scope=self.name, filter=records, count=count,
                        timeout=timeout)["records"]
            if len(found) < count:
                raise ScopeFailed(f"{timeout} s waiting for {count} x {records}: {len(found)} came")
            return found

        def check(self, **checks):  # exactly=N, filter=F, unplanned/violations="none", order="a,b"
            report = api("GET", "assert", scope=self.name, **checks)
            if not report["passed"]:
                raise ScopeFailed("; ".join(failure["message"] for failure in report["failures"]))

        def __exit__(self, kind, error, trace):
            verdict = api("POST", "scope/end", name=self.name)
            if error is None and verdict["violations"]:
                found = verdict["violations"]
                raise ScopeFailed("\n".join(f"#{v['seq']} {v['message']}" for v in found))
            return False


    def app_sends(event):
        """Stands for the app under test: its Segment SDK's track call, sent to listen."""
        track = {"writeKey": "k", "type": "track", "userId": "u-1", "event": event}
        headers = {"Content-Type": "application/json"}
        request = urllib.request.Request(TAGSCOPE + "/v1/track", json.dumps(track).encode(), headers)
        urllib.request.urlopen(request, timeout=30).close()


    if __name__ == "__main__":
        with scope("checkout") as checkout:
            app_sends("Order Completed")  # the UI test taps Pay
            checkout.wait('name:"Order Completed"')
            checkout.check(exactly=1, filter='name:"Order Completed"')
        print("checkout passed")
    """#
}
