// Source 000 (seeds/000_3d3305328567f9eb.txt), lines 285-313: Evaluator.java as published.
package com.example.g2048;

/**
 * 四维目标归一化。关键点：四个特征的量纲差异极大，
 * 必须先映射到 [0,1]，否则非支配排序会被大数值目标垄断。
 */
public final class Evaluator {

    /** 参考上界：取实战观测的经验最大值，用于归一化 */
    static final double MONO_MAX = 20000.0;
    static final double MERGE_MAX = 24.0;

    /** 把棋盘特征打成 4 维目标向量（全部"越大越好"，便于统一支配比较） */
    static double[] features(Board b) {
        double mono   = Math.min(1.0, b.monotonicity() / MONO_MAX);
        double empty  = b.emptyCount() / 15.0;
        double merge  = Math.min(1.0, b.mergeCount() / MERGE_MAX);
        double corner = b.maxAtCorner() ? 1.0 : 0.0;
        return new double[]{mono, empty, merge, corner};
    }

    /** 给定权重向量 w（4 维）对棋盘打分（用归一化特征，避免权重被量纲绑架） */
    static double score(Board b, double[] w) {
        double[] f = features(b);
        double s = 0;
        for (int i = 0; i < 4; i++) s += w[i] * f[i];
        return s;
    }
}
