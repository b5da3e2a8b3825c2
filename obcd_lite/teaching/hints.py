"""The hints of the graded exercises, keyed by question, stored encoded (base64).

A check cell of a graded question shows no hint in its source: :func:`obcd_lite.teaching.exercises.check`
decodes the next one from here after a wrong attempt. Hints narrow the search and never state an answer, so
the encoding only keeps them out of sight until they are asked for; it protects nothing.
"""
from __future__ import annotations

import base64

_ENCODED: dict[str, tuple[str, ...]] = {
    "01.1": (
        "dGhlIG5lYXJlc3Qgb3J0aG9nb25hbCBtYXRyaXggdG8gVCBpcyBpdHMgcG9sYXIgZmFjdG9yOiBjb21wYXJlIGl0cyBkZXRlcm1p"
        "bmFudCB3aXRoIGRldCBU",),
    "01.2": (
        "YnVpbGQgUSBmcm9tIHNwLmV5ZSgyKSwgQV9za2V3IGFuZCAuaW52KCkgZXhhY3RseSBhcyB0aGUgZm9ybXVsYSByZWFkczsgY2hl"
        "Y2sgc3Auc2ltcGxpZnkoUV9leGVyY2lzZS5kZXQoKSk=",),
    "01.3": (
        "Y291bnQgY3JpdGljYWxfcG9pbnRzXzJ4MihCLCBtdSkgZm9yIGEgZmV3IG11IGluIFswLCAxMF07IHRoZSBjb3VudCBjaGFuZ2Vz"
        "IG9ubHkgd2hlcmUgYSBraW5rIHRlc3Qgc3dpdGNoZXM=",
        "Zm9yIDg6IGNvdW50LCBjaXJjbGUgYnkgY2lyY2xlIGFuZCBxdWFkcmFudCBieSBxdWFkcmFudCwgd2hlbiB0aGUgbWF4aW11bSBl"
        "eGlzdHMgYW5kIHdoZW4gZWFjaCBraW5rIGlzIGNyaXRpY2Fs",),
    "02.1": (
        "c3Vic3RpdHV0ZSBhID0gZCBpbnRvIHRoZSBsZWFkaW5nIGNvZWZmaWNpZW50IG9mIHF1YXJ0aWNfc3ltYm9saWMoKQ==",
        "YSByb290IG9mIGEgcG9seW5vbWlhbCBpbiB0ID0gdGFuIM64IHRoYXQgaXMgbG9zdCBoYXMgZ29uZSB0byB0ID0gwrHiiJ46IHdo"
        "aWNoIGFuZ2xlcyBhcmUgdGhvc2UsIGFuZCB3aGljaCBraW5kIGRvZXMgY2FuZGlkYXRlX3NldCBnaXZlIHRoZW0/",),
    "02.2": (
        "fHVfMXwgPSBvMSB1XzEgd2l0aCB1XzEgPSDPgyh4MSArIHQgeTEpL8+BOiBjb2xsZWN0IHRoZSAxL8+BIGFuZCB0L8+BIHRlcm1z",),
    "02.3": (
        "Y29tcHV0ZSBHID0gZCAtIDJ3dCAtIGR0XjIgYW5kIEggPSBiIC0gYXQgYXQgZWFjaCByb290OyDPgyBpcyB0aGUgc2lnbiB0aGF0"
        "IG1ha2VzIEcgKyDPgyBIIM+BIHZhbmlzaA==",),
    "02.4": (
        "ViBaID49IDAgcHV0cyBldmVyeSBjb2x1bW4gb2YgWiBpbnRvIHRoZSBmaXJzdCBxdWFkcmFudCwgYW5kIGEgcm90YXRpb24ga2Vl"
        "cHMgdGhlIGFuZ2xlcyBiZXR3ZWVuIHRoZSBjb2x1bW5z",
        "YSByZWZsZWN0aW9uIGlzIGEgcm90YXRpb24gYWZ0ZXIgYSBtaXJyb3I6IHdoYXQgZG9lcyB0aGF0IGtlZXA/IFRoZW4gcnVuIHNv"
        "bHZlXzJ4Ml9mdWxsIG9uIHlvdXIgWg==",),
    "03.1": (
        "aG93IG1hbnkgcGFpcnMgb2Ygcm93cyBkb2VzIHRoZSBmYWN0b3JpemF0aW9uIHZpc2l0Pw==",
        "ZGV0IG9mIGEgcHJvZHVjdCBpcyB0aGUgcHJvZHVjdCBvZiB0aGUgZGV0czogd2hpY2ggY291bnRzIG9mIHJlZmxlY3Rpb25zIGdp"
        "dmUgZGV0IC0xLCBhbmQgd2hpY2ggZG9lcyBMaXN0aW5nIDEgdXNlPw==",),
    "03.2": (
        "dGhlIGxhc3QgZmFjdG9yIG9mIGVhY2ggY29sdW1uIHRvdWNoZXMgcm93cyAoaiwgaiArIDEpOyBzdGVwcyBhcmUgMS1iYXNlZCwg"
        "cm93cyAwLWJhc2Vk",
        "cmVmbGVjdGlvbl9zdGVwcyhqYWNvYmlfZ2l2ZW5zX3FyKEQ3LCAnZGlzdGluY3QnKSkgZ2l2ZXMgdGhlIHBvc2l0aW9u",),
    "03.3": (
        "d3JpdGUgdGhlIDQtY3ljbGUgYXMgYSBwcm9kdWN0IG9mIHRyYW5zcG9zaXRpb25zIGFuZCB0YWtlIGl0cyBkZXQ=",
        "Y29tcGFyZSB0aGUgY29sdW1ucyBvZiByZWYozrgpIHdpdGggdGhvc2Ugb2YgdGhlIHN3YXA=",),
    "03.4": (
        "Zm9yIHIgPCBuLCBYIFgwXlQgaGFzIHJhbmsgcjogd2hpY2ggY29sdW1ucyBvZiBhbiBvcnRob25vcm1hbCBjb21wbGV0aW9uIG9m"
        "IGl0cyBTVkQgYXJlIGZyZWUsIGFuZCB3aGF0IGRvZXMgZmxpcHBpbmcgb25lIGRvIHRvIGRldD8=",
        "Zm9yIHIgPSBuLCBNID0gVF5UIFggaXMgb3J0aG9nb25hbCB3aXRoIGRldCAtMTogd2hhdCBkb2VzIHRoYXQgZm9yY2Ugb24gaXRz"
        "IGVpZ2VudmFsdWVzLCBpdHMgdHJhY2UgYW5kIHx8WCAtIFR8fF4yID0gMm4gLSAyIHRyIE0/",),
    "04.1": (
        "d2l0aCBzID0gMSBhbiBlbnRyeSBpcyBGID0gbGFtIG5ueiAtIHRyKFheVCBDIFgpOiBob3cgbGFyZ2UgY2FuIHRyKFheVCBDIFgp"
        "IGJlIHdoZW4gdHIgQyA9IDEgYW5kIFggaGFzIG9ydGhvbm9ybWFsIGNvbHVtbnM/",
        "dGhlIHZhcmlhbmNlIHRlcm0gbGllcyBiZXR3ZWVuIDAgYW5kIDEgd2hpbGUgbGFtID0gNTA6IHdoaWNoIHdob2xlIG51bWJlciBu"
        "bnogcHV0cyBsYW0gbm56IGF0IG9yIGp1c3QgYWJvdmUgRj8=",),
    "04.2": (
        "d3JpdGUgQV9yYXdeVCBBX3JhdyBpbiB0ZXJtcyBvZiB0aGUgbm9ybWFsaXNlZCBDIG9mIHNlY3Rpb24gMQ==",
        "bXVsdGlwbHlpbmcgRiBieSBhIHBvc2l0aXZlIG51bWJlciBjaGFuZ2VzIG5vIG1pbmltaXplcjogbWFrZSB0aGUgdHJhY2UgdGVy"
        "bXMgb2YgdGhlIHR3byBwcm9ibGVtcyBlcXVhbA==",),
    "04.3": (
        "dGFrZSBhIGJsb2NrIG9mIG9uZSB1c2VkIHJvdyBpIGFuZCBvbmUgZW1wdHkgcm93IGo6IGNvbXBhcmUgd2hhdCBhIHN3YXAgb3Ig"
        "YSBzbWFsbCByb3RhdGlvbiBnYWlucyBpbiBmIHdpdGggd2hhdCB0aGUgc2NhbGFyIG1ham9yaXplciBjaGFyZ2VzIGZvciBtb3Zp"
        "bmcgKGFuZCB3aXRoIGxhbSk=",
        "b3IgcnVuIE9CQ0Qgd2l0aCBvcHRpb25zPXsnb2JjZCc6IHsnUSc6ICdzY2FsYXInfX0gZnJvbSB0aGUgaWRlbnRpdHkgc3RhcnQg"
        "YW5kIGNvbXBhcmUgWCBhZnRlciB0aGUgcnVuIHdpdGggdGhlIHN0YXJ0",),
    "05.1": (
        "d2hpY2ggZW50cmllcyBvZiDiiIJoIGFyZSBmcmVlIGF0IGEgcG9pbnQgd2l0aCBubyB6ZXJvIGVudHJpZXM/IFRoZW4gRyBpcyB0"
        "aGUgc2FtZSBmb3IgZXZlcnkgcGFpcjogdXNlIFYgPSBJIG9uIGVhY2ggcGFpciBhcyBmb3IgaCA9IDA=",),
    "05.2": (
        "RjEoVikgPSA1IC0gMiB0cihBXlQgVik6IHdyaXRlIGl0IG9uIHRoZSByb3RhdGlvbnMgUijOuCkgYW5kIG9uIHRoZSByZWZsZWN0"
        "aW9uczsgYSByZWZsZWN0aW9uIFcgbW92ZXMgVjAgdG8gdGhlIG90aGVyIGJyYW5jaCBhbmQgY29zdHMgzrEvMiB8fFcgLSBJfHxe"
        "MiA9IDLOsQ==",
        "dGhlIGxhc3QgY3JpdGljYWwgcG9pbnQgdG8gYmVjb21lIEJTMiBpcyBhIG1heGltaXplcjogY29tcGFyZSBpdHMgdmFsdWUgd2l0"
        "aCB0aGUgbG93ZXN0IHZhbHVlIG9uIHRoZSBvdGhlciBicmFuY2g=",),
    "05.3": (
        "Y291bnQgdGhlIGJsb2NrcyB0aHJvdWdoIG9uZSBwYWlyOiBjaG9vc2UgdGhlIHJlbWFpbmluZyBrIC0gMiByb3dzIGZyb20gdGhl"
        "IG90aGVyIG4gLSAy",),
    "06.1": (
        "bGVkZ2VyX3Jvd3ModmVyZGljdD0nZmFsc2UnKSBsaXN0cyB0aGUgcm93czsgYSBsYWJlbCBjYW4gaGF2ZSBzZXZlcmFsIHBhcnRz",),
    "06.2": (
        "Zml4IHRoZSBwYWlyIChvciB0aGUgaW5kZXgpIGFuZCBjaG9vc2UgdGhlIHJlbWFpbmluZyByb3dzIG9mIHRoZSBibG9jayBmcm9t"
        "IHRoZSBvdGhlcnM=",),
    "06.3": (
        "WF5UIEcgPSBXLCBzbyBHXlQgWCA9IC1XOyBjb21wdXRlIGJvdGggZXhwcmVzc2lvbnMgd2l0aCBYXlQgWCA9IEk=",),
    "07.1": (
        "dGhlIGJlc3QgcG9pbnQgb2YgdGhlIGRldCAtMSBjb21wb25lbnQgY2hhbmdlcyB0aGUgU1ZEIHNvbHV0aW9uIG9mIG1heCB0cihY"
        "XlQgTSkgaW4gb25lIHBsYWNlOiB3aGljaCBzaW5ndWxhciB2YWx1ZSBpcyBjaGVhcGVzdCB0byBmbGlwPw==",
        "dGhlbiBtaW5kIHRoZSAxL3Agb2YgRg==",),
    "07.2": (
        "d2hpY2ggb2YgdGhlc2UgbWV0aG9kcyBjYW4gY2hhbmdlIGRldCBYPyBMb29rIGF0IHRoZSBkZXRlcm1pbmFudCBvZiBlYWNoIGtp"
        "bmQgb2YgcGFpciB1cGRhdGU=",),
    "07.3": (
        "aXMgdGhlIGZsb29yIHBvaW50IGEgbG9jYWwgbWluaW1pemVyIG9mIEYgb24gTyhwKT8gVGhpbmsgYWJvdXQgd2hhdCBraW5kIG9m"
        "IHN1YnNldCBvZiBPKHApIHRoZSBjb21wb25lbnQge2RldCBYID0gZGV0IFgwfSBpcw==",),
    "08.1": (
        "d3JpdGUgcmhvX2kgPSB8fHhfaXx8XjIgYW5kIGFwcGx5IHRoZSBjaGFpbiBydWxlIHRvIHJob19pXjIgLyA0",
        "dGhlIHJlc3VsdCBzY2FsZXMgcm93IGkgb2YgWCBieSBhIG51bWJlcg==",),
    "08.2": (
        "ZyBpcyBzZXBhcmFibGUgb3ZlciByb3dzOiBib3VuZCB0aGUgSGVzc2lhbiBvZiByaG9faV4yIC8gNCBpbiByb3cgaQ==",
        "dGhhdCBIZXNzaWFuIGlzIGEgbXVsdGlwbGUgb2YgSSBwbHVzIGEgcmFuay1vbmUgdGVybTsgdGFrZSB0aGUgbGFyZ2VzdCBlaWdl"
        "bnZhbHVlIG92ZXIgfHx4X2l8fCA8PSAx",),
    "08.3": (
        "bm90ZWJvb2sgMDU6IGZvciB3aGljaCBwZW5hbHRpZXMgZG9lcyBUaGVvcmVtIDMuOChhKSwgQlMyID0+IGNyaXRpY2FsLCBob2xk"
        "Pw==",),
}


def hints(question: str) -> tuple[str, ...]:
    """The hints of a graded question, in the order they are shown (one per wrong attempt).

    Parameters
    ----------
    question : str
        The question, e.g. ``"01.3"``.

    Returns
    -------
    tuple of str
        Its hints.

    Raises
    ------
    KeyError
        If the question has no stored hints.
    """
    if question not in _ENCODED:
        raise KeyError(f"no hints stored for question {question!r}; known: {sorted(_ENCODED)}")
    return tuple(base64.b64decode(h).decode() for h in _ENCODED[question])
