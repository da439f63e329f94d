"""Loading photos as phones make them: orientation, size, formats, and files that are not photos."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from vision import photo_io
from vision.photo_io import PhotoError, load_photo


def _marked(width: int = 300, height: int = 200) -> Image.Image:
    """A grey image with a red block in its top-left corner."""
    array = np.full((height, width, 3), 128, np.uint8)
    array[:40, :60] = (255, 0, 0)
    return Image.fromarray(array)


def _jpeg(image: Image.Image, orientation: int | None = None, **kwargs) -> bytes:
    exif = Image.Exif()
    if orientation is not None:
        exif[0x0112] = orientation
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif, quality=92, **kwargs)
    return out.getvalue()


def test_exif_orientation_6_turns_a_sideways_jpeg_upright(tmp_path):
    path = tmp_path / "portrait.jpg"
    path.write_bytes(_jpeg(_marked(), orientation=6))  # stored landscape, shown rotated 90 degrees clockwise
    photo = load_photo(path)
    assert photo.rgb.shape == (300, 200, 3)
    assert photo.original_size == (200, 300)
    top_right = photo.rgb[5:30, -30:-5].mean(axis=(0, 1))
    assert top_right[0] > 200 and top_right[1] < 60  # the red block moved to the top right


def test_photo_without_orientation_tag_is_unchanged():
    photo = load_photo(_jpeg(_marked()))
    assert photo.rgb.shape == (200, 300, 3)
    assert photo.rgb[10, 10, 0] > 200


def test_twelve_megapixel_jpeg_is_decoded_small_and_boxes_map_back(tmp_path):
    image = Image.new("RGB", (4032, 3024), (30, 110, 60))
    path = tmp_path / "big.jpg"
    image.save(path, quality=80)
    photo = load_photo(path)
    assert max(photo.rgb.shape[:2]) <= photo_io.WORKING_MAX_SIDE
    assert photo.original_size == (4032, 3024)
    sx, sy = photo.scale
    assert sx == pytest.approx(2.0, rel=0.01) and sy == pytest.approx(2.0, rel=0.01)
    assert photo.to_original([[10, 20, 30, 40]])[0].tolist() == pytest.approx([20, 40, 60, 80], rel=0.01)


def test_big_png_is_resized_to_the_working_size():
    out = io.BytesIO()
    Image.new("RGB", (3000, 1000), (0, 0, 255)).save(out, "PNG")
    photo = load_photo(out.getvalue())
    assert photo.rgb.shape == (683, 2048, 3)
    assert photo.scale[0] == pytest.approx(3000 / 2048)


def test_webp_with_transparency_is_flattened_on_white():
    rgba = Image.new("RGBA", (64, 48), (0, 0, 0, 0))
    out = io.BytesIO()
    rgba.save(out, "WEBP", lossless=True)
    photo = load_photo(out.getvalue())
    assert photo.rgb.shape == (48, 64, 3)
    assert photo.rgb.min() >= 250


def test_heic_photo_is_read():
    pillow_heif = pytest.importorskip("pillow_heif")
    out = io.BytesIO()
    try:
        _marked().save(out, "HEIF", quality=90)
    except (KeyError, OSError, ValueError) as error:
        pytest.skip(f"pillow-heif cannot write HEIC here: {error}")
    assert pillow_heif.is_supported(io.BytesIO(out.getvalue()))
    photo = load_photo(out.getvalue())
    assert photo.rgb.shape == (200, 300, 3)
    assert photo.rgb[10, 10, 0] > 180


def test_rgb_array_is_accepted_and_not_copied_when_small():
    array = np.zeros((50, 80, 3), np.uint8)
    photo = load_photo(array)
    assert photo.rgb.shape == (50, 80, 3) and photo.original_size == (80, 50)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "empty"),
        (b"hello, this is text and not a photo", "not a JPEG, PNG, WebP or HEIC image"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 20, "damaged or truncated"),
    ],
    ids=["empty", "text", "jpeg-magic-only"],
)
def test_files_that_are_not_photos_are_refused_with_one_sentence(tmp_path, content, words):
    path = tmp_path / "photo.jpg"
    path.write_bytes(content)
    with pytest.raises(PhotoError, match=words) as caught:
        load_photo(path)
    assert "\n" not in str(caught.value)


def test_truncated_jpeg_is_refused(tmp_path):
    data = _jpeg(Image.fromarray(np.random.default_rng(0).integers(0, 255, (400, 400, 3), np.uint8)))
    path = tmp_path / "cut.jpg"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(PhotoError, match="truncated"):
        load_photo(path)


def test_decompression_bomb_is_refused_before_decoding(monkeypatch):
    monkeypatch.setattr(photo_io, "MAX_PIXELS_WHOLE", 10_000)
    out = io.BytesIO()
    Image.new("1", (200, 200)).save(out, "PNG")
    with pytest.raises(PhotoError, match="too big"):
        load_photo(out.getvalue())


def test_missing_file_and_folder_are_refused(tmp_path):
    with pytest.raises(PhotoError, match="does not exist"):
        load_photo(tmp_path / "nope.jpg")
    with pytest.raises(PhotoError, match="folder"):
        load_photo(tmp_path)


def test_uploaded_file_objects_are_read_and_an_empty_upload_is_refused():
    upload = io.BytesIO(_jpeg(_marked()))
    upload.name = "IMG_0001.JPG"
    assert load_photo(upload).rgb.shape == (200, 300, 3)
    empty = io.BytesIO(b"")
    empty.name = "IMG_0002.HEIC"
    with pytest.raises(PhotoError, match=r"IMG_0002\.HEIC is empty"):
        load_photo(empty)


def test_photo_error_is_a_value_error():
    assert issubclass(PhotoError, ValueError)
