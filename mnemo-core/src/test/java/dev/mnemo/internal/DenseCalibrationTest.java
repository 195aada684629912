package dev.mnemo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class DenseCalibrationTest {

  @Test
  void cosines_fourRowsAtATime_areBitForBitTheOneRowAtATimeSums() {
    Random r = new Random(11);
    for (int round = 0; round < 200; round++) {
      int dim = 1 + r.nextInt(400);
      float[][] bank = new float[r.nextInt(45)][dim];
      for (float[] row : bank) for (int j = 0; j < dim; j++) row[j] = (float) r.nextGaussian();
      float[] v = new float[dim];
      for (int j = 0; j < dim; j++) v[j] = (float) r.nextGaussian();
      double[] got = DenseCalibration.cosines(v, bank);
      assertThat(got).hasSize(bank.length);
      for (int i = 0; i < bank.length; i++) {
        double dot = 0;
        for (int j = 0; j < dim; j++) dot += v[j] * bank[i][j];
        assertThat(Double.doubleToRawLongBits(got[i]))
            .as("row %d of %d, dimension %d", i, bank.length, dim)
            .isEqualTo(Double.doubleToRawLongBits(dot));
      }
    }
  }
}
