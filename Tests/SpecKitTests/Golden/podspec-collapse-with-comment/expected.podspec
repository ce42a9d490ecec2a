Pod::Spec.new do |s|
  s.name = 'Payments'
  s.dependency 'Core', # lower bound
                       '1.0.1'   # upper bound
end
