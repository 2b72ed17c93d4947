// Hand-set starting weights (a concave value per point, the lowest colour first);
// `training/fit_eval.py` overwrites this file with fitted ones.
pub const WEIGHTS: [[f64; super::NF]; 3] = [
    [12.0, 9.0, 7.0, 5.0, 4.0, 3.0, 4.0, 1.0, 2.0, -1.0, 0.3, 0.3, 0.2, 0.2, 0.5, 0.3, 0.1, -0.3, 0.3, 0.1, 0.0, 0.5],
    [12.0, 9.0, 7.0, 5.0, 4.0, 3.0, 4.0, 1.0, 2.0, -1.0, 0.3, 0.3, 0.2, 0.2, 0.5, 0.3, 0.1, -0.3, 0.3, 0.1, 0.0, 0.5],
    [12.0, 9.0, 7.0, 5.0, 4.0, 3.0, 4.0, 1.0, 2.0, -1.0, 0.3, 0.3, 0.2, 0.2, 0.5, 0.3, 0.1, -0.3, 0.3, 0.1, 0.0, 0.5],
];
