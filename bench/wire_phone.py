"""A phone without a browser: it speaks Streamlit's own protocol, so a dozen cost the server's machine almost nothing.

``bench/bench_load.py --wire`` uses it to measure the server alone: on the 2-core machine a dozen headless
Chromium pages take more CPU than the server they are timing, where real phones bring their own CPUs. A
wire phone does what the page does over the network and nothing else:

1. ``GET /_stcore/health`` for the XSRF cookie, then opens the websocket (``/_stcore/stream``) and asks for
   the Count page;
2. to upload, asks for an upload URL (a ``file_urls_request``), ``PUT`` s the photo there as the page's
   uploader does, and reruns the script with the uploader's new state;
3. reads the server's messages until the count's element arrives (``.cc-total``) and the run finishes.

What it leaves out is the phone's own work: drawing the page (``bench/bench_phone_cpu.py`` measures that).
"""

from __future__ import annotations

import asyncio
import re
import time
import urllib.request
import uuid
from http.cookies import SimpleCookie
from urllib.parse import urlsplit

XSRF_COOKIE = "_streamlit_xsrf"
TOTAL = re.compile(r'cc-total">(\d+)<')
READ_IN = re.compile(r"[Rr]ead in ([\d.]+) s")
Upload = tuple[float | None, str | None, float | None]
"""Seconds to the count's element, the count, the server's "read in" seconds: ``None`` each when no count came."""


class WirePhone:
    """One Streamlit session driven over its websocket, on the page ``page``."""

    def __init__(self, url: str, page: str = "count"):
        self.url = url.rstrip("/")
        self.query = f"page={page}"
        self.socket = None
        self.session_id = ""
        self.xsrf = ""
        self.uploader_id: str | None = None
        self.finished = False
        """Whether the server finished the last upload's run (a timeout leaves it False)."""
        self.alerts: list[str] = []
        """What the last upload's run said in error and warning boxes."""

    async def open(self, timeout_s: float = 60) -> WirePhone:
        """Connect and run the page once (its uploader's widget id comes back in that run)."""
        import websockets

        self.xsrf = await asyncio.to_thread(self._xsrf_cookie)
        host = urlsplit(self.url).netloc
        self.socket = await websockets.connect(
            f"ws://{host}/_stcore/stream",
            subprotocols=["streamlit", self.xsrf],  # the page passes its XSRF token this way
            additional_headers={"Cookie": f"{XSRF_COOKIE}={self.xsrf}"},
            max_size=None,
            compression=None,
        )
        await self._rerun([])
        await asyncio.wait_for(self._until_finished(), timeout_s)
        if self.uploader_id is None:
            raise RuntimeError("The page drew no file uploader.")
        return self

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()

    async def upload(self, name: str, data: bytes, timeout_s: float = 60) -> Upload:
        """Send ``data`` as the uploader's photo: seconds from asking for the upload URL to the count's element, the
        count, and the server's "read in" time (``None`` each when no count came)."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.Common_pb2 import FileUploaderState, UploadedFileInfo
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        start = time.perf_counter()
        request = BackMsg()
        request.file_urls_request.request_id = uuid.uuid4().hex
        request.file_urls_request.file_names.append(name)
        request.file_urls_request.session_id = self.session_id
        await self.socket.send(request.SerializeToString())
        urls = await asyncio.wait_for(self._file_urls(request.file_urls_request.request_id), timeout_s)
        await asyncio.to_thread(self._put, urls.upload_url, name, data)
        state = WidgetState(id=self.uploader_id)
        state.file_uploader_state_value.CopyFrom(
            FileUploaderState(uploaded_file_info=[UploadedFileInfo(name=name, size=len(data), file_id=urls.file_id)])
        )
        state.file_uploader_state_value.uploaded_file_info[0].file_urls.CopyFrom(urls)
        await self._rerun([state])
        try:
            count, read_s, seconds = await asyncio.wait_for(self._until_count(start), timeout_s)
        except TimeoutError:
            return None, None, None
        return seconds, count, read_s

    def _xsrf_cookie(self) -> str:
        with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=60) as response:  # it sets the cookie
            cookies = SimpleCookie()
            for header in response.headers.get_all("Set-Cookie") or []:
                cookies.load(header)
        return cookies[XSRF_COOKIE].value if XSRF_COOKIE in cookies else ""

    def _put(self, upload_url: str, name: str, data: bytes) -> None:
        """The photo as multipart form data, as the browser's uploader sends it."""
        boundary = uuid.uuid4().hex
        body = b"".join(
            [
                f"--{boundary}\r\n".encode(),
                f'Content-Disposition: form-data; name="file"; filename="{name}"\r\n'.encode(),
                b"Content-Type: image/jpeg\r\n\r\n",
                data,
                f"\r\n--{boundary}--\r\n".encode(),
            ]
        )
        target = upload_url if upload_url.startswith("http") else f"{self.url}/{upload_url.lstrip('/')}"
        headers = {
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "X-Xsrftoken": self.xsrf,
            "Cookie": f"{XSRF_COOKIE}={self.xsrf}",
        }
        request = urllib.request.Request(target, data=body, method="PUT", headers=headers)
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()

    async def _rerun(self, states: list) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        message = BackMsg()
        message.rerun_script.query_string = self.query
        message.rerun_script.widget_states.widgets.extend(states)
        await self.socket.send(message.SerializeToString())

    async def _messages(self):
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        async for raw in self.socket:
            message = ForwardMsg()
            message.ParseFromString(raw)
            kind = message.WhichOneof("type")
            if kind == "new_session":
                self.session_id = message.new_session.initialize.session_id
            yield kind, message

    async def _until_finished(self) -> None:
        async for kind, message in self._messages():
            if kind == "delta" and message.delta.new_element.WhichOneof("type") == "file_uploader":
                self.uploader_id = message.delta.new_element.file_uploader.id
            if kind == "script_finished":
                return

    async def _file_urls(self, request_id: str):
        async for kind, message in self._messages():
            if kind == "file_urls_response" and message.file_urls_response.response_id == request_id:
                return message.file_urls_response.file_urls[0]
        raise ConnectionError("The server closed the connection before giving an upload URL.")

    async def _until_count(self, start: float) -> tuple[str | None, float | None, float | None]:
        """The count, the read time and the seconds to the count's element, from this run's elements."""
        count, read_s, seconds = None, None, None
        self.finished, self.alerts = False, []
        async for kind, message in self._messages():
            if kind == "delta":
                element = message.delta.new_element
                if element.WhichOneof("type") == "markdown" and count is None:
                    found = TOTAL.search(element.markdown.body)
                    if found:
                        count, seconds = found.group(1), time.perf_counter() - start
                elif element.WhichOneof("type") == "alert":
                    self.alerts.append(element.alert.body)
                elif element.WhichOneof("type") == "imgs":
                    for image in element.imgs.imgs:
                        found = READ_IN.search(image.caption)
                        read_s = float(found.group(1)) if found else read_s
            if kind == "script_finished":
                self.finished = True
                break
        return count, read_s, seconds
