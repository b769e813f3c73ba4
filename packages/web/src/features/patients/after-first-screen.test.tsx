import { render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AfterFirstScreen } from './after-first-screen.tsx';

function Counter() {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount((c) => c + 1)}>
      {`count ${count}`}
    </button>
  );
}

describe('AfterFirstScreen', () => {
  it('leaves its children out of the first render and draws them right after, without any scroll', async () => {
    const { container } = render(
      <>
        <h1>First screen</h1>
        <AfterFirstScreen>
          <h2>Below</h2>
        </AfterFirstScreen>
      </>,
    );
    // The first screen is there at once; what follows is not part of the same render.
    expect(screen.getByRole('heading', { name: 'First screen' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Below' })).toBeInTheDocument();
    expect(container.querySelectorAll('h2')).toHaveLength(1);
  });

  it('keeps its children once drawn: their state survives the parent re-rendering', async () => {
    function Parent() {
      const [, setTick] = useState(0);
      return (
        <>
          <button type="button" onClick={() => setTick((t) => t + 1)}>
            parent
          </button>
          <AfterFirstScreen>
            <Counter />
          </AfterFirstScreen>
        </>
      );
    }
    render(<Parent />);
    (await screen.findByRole('button', { name: 'count 0' })).click();
    expect(await screen.findByRole('button', { name: 'count 1' })).toBeInTheDocument();
    screen.getByRole('button', { name: 'parent' }).click();
    expect(await screen.findByRole('button', { name: 'count 1' })).toBeInTheDocument();
  });
});
