from __future__ import annotations

import numpy as np
from tripagent_local.regions.elevation import SRTM1_SIZE, SRTM_VOID, resample_srtm3_to_srtm1


def test_resampling_keeps_the_grid_corners_and_interpolates_between_samples() -> None:
    src = (np.arange(1201 * 1201).reshape(1201, 1201) % 3000).astype(">i2")
    out = np.frombuffer(resample_srtm3_to_srtm1(src.tobytes()), dtype=">i2").reshape(SRTM1_SIZE, SRTM1_SIZE)
    assert out.shape == (3601, 3601)
    for (r, c), (sr, sc) in {
        (0, 0): (0, 0),
        (0, 3600): (0, 1200),
        (3600, 0): (1200, 0),
        (3600, 3600): (1200, 1200),
        (3, 6): (1, 2),
    }.items():
        assert out[r, c] == src[sr, sc]
    # one third of the way between two source samples along a row
    assert out[0, 1] == round(src[0, 0] + (src[0, 1] - src[0, 0]) / 3)


def test_voids_stay_voids_instead_of_bending_the_terrain() -> None:
    src = np.full((1201, 1201), 1000, dtype=">i2")
    src[600, 600] = SRTM_VOID
    out = np.frombuffer(resample_srtm3_to_srtm1(src.tobytes()), dtype=">i2").reshape(SRTM1_SIZE, SRTM1_SIZE)
    assert out[1800, 1800] == SRTM_VOID
    assert out.min() in (SRTM_VOID,)
    assert (out[out != SRTM_VOID] == 1000).all()
